package dev.cairn.coordinator.streams;

import dev.cairn.coordinator.domain.Command;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.ParticipantAcknowledged;
import dev.cairn.events.ParticipantDeclined;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TriggerRequest;
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
        if (event instanceof JobSpec spec) {
            return new Command.RegisterJob(spec, random.getAsDouble());
        }
        if (event instanceof JobStatusChange change) {
            return new Command.ChangeJobStatus(change, random.getAsDouble());
        }
        if (event instanceof TriggerRequest request) {
            return new Command.RequestTrigger(request);
        }
        if (event instanceof TaskStarted started) {
            return new Command.StartTask(started);
        }
        if (event instanceof CheckpointAcknowledged ack) {
            return new Command.Acknowledge(ack);
        }
        if (event instanceof CheckpointDeclined decline) {
            return new Command.Decline(decline);
        }
        if (event instanceof TaskFinished finished) {
            return new Command.FinishTask(finished);
        }
        if (event instanceof ParticipantAcknowledged ack) {
            return new Command.AcknowledgeParticipant(ack);
        }
        if (event instanceof ParticipantDeclined decline) {
            return new Command.DeclineParticipant(decline);
        }
        throw new IllegalArgumentException("not a Cairn request or ack: " + envelope);
    }
}
