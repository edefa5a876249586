package dev.cairn.topics;

import java.util.Collection;
import java.util.Set;

/**
 * Thrown by {@link TopicReadiness} when topics did not become ready to be produced to in time, or cannot
 * become ready at all (for example because the client is not authorized to describe them).
 */
public class TopicNotReadyException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient Set<String> topics;

    /**
     * Creates the exception.
     *
     * @param message what was not ready and why
     * @param topics  the topics that were not ready
     * @param cause   the last error seen while waiting, may be {@code null}
     */
    public TopicNotReadyException(String message, Collection<String> topics, Throwable cause) {
        super(message, cause);
        this.topics = Set.copyOf(topics);
    }

    /**
     * The topics that were not ready.
     *
     * @return an unmodifiable set of topic names
     */
    public Set<String> topics() {
        return topics;
    }
}
