package dev.cairn.coordinator.domain;

import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.ParticipantAcknowledged;
import dev.cairn.events.ParticipantDeclined;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TriggerRequest;
import java.util.Objects;

/**
 * An input of the decider: a record from {@code cairn.requests} or {@code cairn.acks}, or a timer
 * tick. Random values are drawn by the shell and passed in, so that {@link CheckpointDecider#decide}
 * stays a pure function.
 */
public sealed interface Command {

    /** The job this command is about; the shell keys records by it. */
    String jobId();

    /**
     * Registers a job or replaces its spec.
     *
     * @param initialDelayFraction a random value in [0, 1) mapping to the first periodic trigger delay
     *     in [minPause, interval)
     */
    record RegisterJob(JobSpec spec, double initialDelayFraction) implements Command {
        public RegisterJob {
            Objects.requireNonNull(spec, "spec");
        }

        @Override
        public String jobId() {
            return spec.getJobId();
        }
    }

    /**
     * The job left or entered RUNNING.
     *
     * @param initialDelayFraction as for {@link RegisterJob}: used when the job enters RUNNING
     */
    record ChangeJobStatus(JobStatusChange change, double initialDelayFraction) implements Command {
        public ChangeJobStatus {
            Objects.requireNonNull(change, "change");
        }

        @Override
        public String jobId() {
            return change.getJobId();
        }
    }

    /** A manual checkpoint or savepoint request. */
    record RequestTrigger(TriggerRequest request) implements Command {
        public RequestTrigger {
            Objects.requireNonNull(request, "request");
        }

        @Override
        public String jobId() {
            return request.getJobId();
        }
    }

    /** A subtask attempt started (replacing any earlier attempt of that subtask). */
    record StartTask(TaskStarted started) implements Command {
        public StartTask {
            Objects.requireNonNull(started, "started");
        }

        @Override
        public String jobId() {
            return started.getJobId();
        }
    }

    /** A subtask acknowledged a checkpoint. */
    record Acknowledge(CheckpointAcknowledged ack) implements Command {
        public Acknowledge {
            Objects.requireNonNull(ack, "ack");
        }

        @Override
        public String jobId() {
            return ack.getJobId();
        }
    }

    /** A subtask declined a checkpoint. */
    record Decline(CheckpointDeclined decline) implements Command {
        public Decline {
            Objects.requireNonNull(decline, "decline");
        }

        @Override
        public String jobId() {
            return decline.getJobId();
        }
    }

    /** A subtask finished for good: it is no longer triggered and counts as acknowledged. */
    record FinishTask(TaskFinished finished) implements Command {
        public FinishTask {
            Objects.requireNonNull(finished, "finished");
        }

        @Override
        public String jobId() {
            return finished.getJobId();
        }
    }

    /** A coordinator-side participant snapshotted its state for a checkpoint. */
    record AcknowledgeParticipant(ParticipantAcknowledged ack) implements Command {
        public AcknowledgeParticipant {
            Objects.requireNonNull(ack, "ack");
        }

        @Override
        public String jobId() {
            return ack.getJobId();
        }
    }

    /** A coordinator-side participant could not snapshot its state for a checkpoint. */
    record DeclineParticipant(ParticipantDeclined decline) implements Command {
        public DeclineParticipant {
            Objects.requireNonNull(decline, "decline");
        }

        @Override
        public String jobId() {
            return decline.getJobId();
        }
    }

    /** Something of the job may be due (a checkpoint timeout or the periodic trigger). */
    record Tick(String jobId) implements Command {
        public Tick {
            Objects.requireNonNull(jobId, "jobId");
        }
    }
}
