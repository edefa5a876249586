package dev.cairn.client.requests;

/** A request the broker did not acknowledge in time; the message says what was not sent, where, and why. */
public final class SendFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message what was not sent, where, and why */
    public SendFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
