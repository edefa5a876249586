package dev.cairn.coordinator.rest;

import java.util.Map;

/**
 * A request the REST API answers with an error status and a JSON body {@code {"error": "..."}} that says
 * exactly what is wrong. 503 answers carry a {@code Retry-After} header: the state is moving between
 * instances (or not restored yet) and the same request will succeed shortly. 401 answers carry
 * {@code WWW-Authenticate: Bearer realm="cairn"}, 405 answers an {@code Allow} header naming the methods the
 * path serves. Every part of the REST API throws it (a token refused, a body refused, stores not queryable); the
 * routes turn it into the answer.
 */
public final class ApiException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Seconds a client should wait before retrying a 503. */
    private static final int RETRY_AFTER_SECONDS = 1;
    /** The challenge of every 401 answer. */
    private static final String BEARER_CHALLENGE = "Bearer realm=\"cairn\"";

    private final int status;
    private final String allow;

    /** An answer of {@code status} (400 or more) saying {@code message}. */
    public ApiException(int status, String message) {
        this(status, message, null);
    }

    private ApiException(int status, String message, String allow) {
        super(message, null, false, false);
        this.status = status;
        this.allow = allow;
    }

    public static ApiException badRequest(String message) {
        return new ApiException(400, message);
    }

    public static ApiException unauthorized(String message) {
        return new ApiException(401, message);
    }

    public static ApiException forbidden(String message) {
        return new ApiException(403, message);
    }

    public static ApiException notFound(String message) {
        return new ApiException(404, message);
    }

    /** 405 for {@code method}, with an {@code Allow} header listing {@code allowed} (like {@code "GET, PUT"}). */
    public static ApiException methodNotAllowed(String method, String allowed) {
        return new ApiException(405, method + " is not allowed here; allowed: " + allowed, allowed);
    }

    public static ApiException tooLarge(String message) {
        return new ApiException(413, message);
    }

    public static ApiException unavailable(String message) {
        return new ApiException(503, message);
    }

    /** The HTTP status of the answer. */
    public int status() {
        return status;
    }

    /**
     * The headers the answer carries because of its status: {@code Retry-After}, {@code WWW-Authenticate},
     * {@code Allow}.
     */
    public Map<String, String> headers() {
        return switch (status) {
            case 401 -> Map.of("WWW-Authenticate", BEARER_CHALLENGE);
            case 405 -> Map.of("Allow", allow);
            case 503 -> Map.of("Retry-After", Integer.toString(RETRY_AFTER_SECONDS));
            default -> Map.of();
        };
    }
}
