package dev.cairn.coordinator.streams;

import dev.cairn.coordinator.domain.Command;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.RequestEnvelope;
import java.util.function.DoubleSupplier;
import org.apache.avro.specific.SpecificRecord;

/**
 * Turns a record of {@code cairn.requests} or {@code cairn.acks} into a decider {@link Command}. Random
 * values the decider needs (the first periodic trigger's delay) are drawn here, so the core stays pure.
 */
final class CommandMapper {

    private final DoubleSupplier random;

    CommandMapper(DoubleSupplier random) {
        this.random = random;
    }

    /**
     * @throws IllegalArgumentException when the record is keyed by another job than its event names (it
     *     would be processed in the wrong partition) or carries no known event
     */
    Command toCommand(String key, SpecificRecord envelope) {
        Command command = map(envelope);
        if (key == null || !key.equals(command.jobId())) {
            throw new IllegalArgumentException("record key '" + key + "' differs from the job id '"
                    + command.jobId() + "' of its " + command.getClass().getSimpleName()
                    + " event: every Cairn record must be keyed by its job id");
        }
        return command;
    }

    private Command map(SpecificRecord envelope) {
        Object event = envelope instanceof RequestEnvelope r ? r.getEvent()
                : envelope instanceof AckEnvelope a ? a.getEvent()
                : null;
        if (event == null) {
            throw new IllegalArgumentException("not a Cairn request or ack: " + envelope);
        }
        return Command.of(event, random);
    }
}
