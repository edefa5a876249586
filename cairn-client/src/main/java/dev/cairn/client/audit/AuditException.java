package dev.cairn.client.audit;

/** The audit could not do what it was asked: Kafka or the REST API unreachable, a topic or offset that is not there. */
public final class AuditException extends RuntimeException {

    public AuditException(String message) {
        super(message);
    }

    public AuditException(String message, Throwable cause) {
        super(message, cause);
    }
}
