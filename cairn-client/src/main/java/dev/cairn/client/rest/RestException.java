package dev.cairn.client.rest;

/**
 * The coordinator's REST API could not be reached, or answered a call with an error: {@link #status()} is the HTTP
 * status (0 when no answer came), the message names the call and the API's own {@code {"error": ...}}.
 */
public class RestException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;

    public RestException(int status, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    /** The HTTP status of the answer, 0 when none came. */
    public int status() {
        return status;
    }
}
