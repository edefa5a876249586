package dev.cairn.events.serde;

import org.apache.kafka.common.errors.SerializationException;

/**
 * Thrown when bytes read from a Cairn topic cannot be turned into an event. The {@link #problem()} says
 * what is wrong in a form a dead-letter handler can record; the message says it in words.
 */
public class EventDecodingException extends SerializationException {

    /** What was wrong with the bytes. */
    public enum Problem {
        /** No bytes at all (a null or empty record value). */
        EMPTY,
        /** The bytes do not start with Avro's single-object marker {@code C3 01}. */
        NOT_SINGLE_OBJECT_ENCODED,
        /** The schema fingerprint belongs to no schema version Cairn ships. */
        UNKNOWN_SCHEMA,
        /** The fingerprint is a known Cairn schema, but of another event type than the topic carries. */
        WRONG_EVENT_TYPE,
        /** The record ends before the event does. */
        TRUNCATED,
        /** The body does not decode with the writer's schema. */
        CORRUPT,
        /** A whole event followed by bytes that belong to none. */
        TRAILING_BYTES,
        /** A record of cairn.acks or cairn.requests without the signature the coordinator requires. */
        UNSIGNED,
        /** A record whose signature does not match its bytes under the key it must be signed with. */
        BAD_SIGNATURE
    }

    private static final long serialVersionUID = 1L;

    private final Problem problem;

    public EventDecodingException(Problem problem, String message, Throwable cause) {
        super(problem + ": " + message, cause);
        this.problem = problem;
    }

    public Problem problem() {
        return problem;
    }
}
