package dev.cairn.coordinator.streams;

import dev.cairn.core.events.BoundedText;
import dev.cairn.core.events.Command;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.RequestEnvelope;
import java.util.function.DoubleSupplier;
import org.apache.avro.specific.SpecificRecord;

/**
 * Turns a record of {@code cairn.requests} or {@code cairn.acks} into a decider {@link Command}: a request becomes a
 * {@link Command.Delivered} with its record timestamp, when the broker appended it, so that the decider can refuse a
 * stale or repeated request. Random values the decider needs (the first periodic trigger's delay) are drawn here, so
 * the core stays pure.
 */
final class CommandMapper {

    private final DoubleSupplier random;
    private final int maxIdLength;

    /** @param maxIdLength the longest job id the coordinator takes; a longer record key is refused unread */
    CommandMapper(DoubleSupplier random, int maxIdLength) {
        this.random = random;
        this.maxIdLength = maxIdLength;
    }

    /**
     * @param timestampMs the record timestamp: when the broker appended it, on a topic with
     *     {@code message.timestamp.type=LogAppendTime}; {@link Command.Delivered#UNKNOWN_TIME} when not known
     * @throws CommandFailedException ({@code ID_TOO_LONG}) when the record key is longer than a job id may be: such
     *     a record is dead-lettered before anything repeats its key (a rejection keyed by a megabyte id could not
     *     be sent, and under exactly-once a record that cannot be sent stops the stream thread)
     * @throws IllegalArgumentException when the record is keyed by another job than its event names (it
     *     would be processed in the wrong partition) or carries no known event
     */
    Command toCommand(String key, SpecificRecord envelope, long timestampMs) {
        if (key != null && key.length() > maxIdLength) {
            throw new CommandFailedException("ID_TOO_LONG", "the record key, a job id, has " + key.length()
                    + " characters, more than the limit of " + maxIdLength + ": " + BoundedText.quoted(key), null);
        }
        Command.Input command = map(envelope);
        if (key == null || !key.equals(command.jobId())) {
            throw new IllegalArgumentException("record key '" + BoundedText.quoted(key) + "' differs from the job id '"
                    + BoundedText.quoted(command.jobId()) + "' of its " + command.getClass().getSimpleName()
                    + " event: every Cairn record must be keyed by its job id");
        }
        return envelope instanceof RequestEnvelope ? new Command.Delivered(command, timestampMs)
                : command;
    }

    private Command.Input map(SpecificRecord envelope) {
        Object event = envelope instanceof RequestEnvelope r ? r.getEvent()
                : envelope instanceof AckEnvelope a ? a.getEvent()
                : null;
        if (event == null) {
            throw new IllegalArgumentException("not a Cairn request or ack: " + envelope);
        }
        return Command.of(event, random);
    }
}
