package dev.cairn.coordinator.streams;

/**
 * Processing one input record failed, with any {@link Throwable} (an {@code OutOfMemoryError} included), or
 * would produce a record too large to send. Nothing of the command was applied; Kafka Streams hands the
 * input record to {@link DeadLetterQueueHandler}, which sends it to the dead-letter topic with this message,
 * and processing goes on with the next record.
 */
public final class CommandFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String reason;

    CommandFailedException(String reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    /** A short reason for the dead-letter header: {@code OUTPUT_TOO_LARGE} or the failure's class name. */
    public String reason() {
        return reason;
    }
}
