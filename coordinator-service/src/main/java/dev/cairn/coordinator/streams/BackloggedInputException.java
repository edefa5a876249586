package dev.cairn.coordinator.streams;

/**
 * An input kept while its task's stores were rebuilt ({@link RebuildBacklog}) failed when it was decided, as it would
 * have failed when it came: thrown from the punctuator that decides kept inputs, where Kafka Streams knows no source
 * record, so it carries the input's place, key and envelope for the dead letter ({@link DeadLetterQueueHandler}),
 * and the failure as its cause.
 */
final class BackloggedInputException extends RuntimeException {

    private final transient RebuildBacklog.Entry input;

    BackloggedInputException(RebuildBacklog.Entry input, RuntimeException cause) {
        super("deciding " + input.topic() + "-" + input.partition() + "@" + input.offset()
                + ", kept while the stores were rebuilt, failed: " + cause.getMessage(), cause);
        this.input = input;
    }

    RebuildBacklog.Entry input() {
        return input;
    }

    /** The failure's reason as a dead letter names it: the reason of a {@link CommandFailedException}, or its class. */
    String reason() {
        return getCause() instanceof CommandFailedException failed ? failed.reason()
                : getCause().getClass().getSimpleName();
    }
}
