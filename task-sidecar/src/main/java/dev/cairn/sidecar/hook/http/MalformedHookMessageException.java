package dev.cairn.sidecar.hook.http;

/**
 * A hook message (an HTTP body or a command's standard output) that is not the JSON the hook protocol
 * expects; the message names what is wrong.
 */
public class MalformedHookMessageException extends Exception {

    private static final long serialVersionUID = 1L;

    /** @param message what is wrong, naming the field when one is at fault */
    public MalformedHookMessageException(String message) {
        super(message);
    }
}
