package dev.cairn.sidecar.kafka;

import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.RestoreFailed;
import dev.cairn.sidecar.core.AckEvents;
import dev.cairn.sidecar.core.RestoreCheck;
import dev.cairn.sidecar.core.RestorePoints;
import dev.cairn.sidecar.core.SidecarIdentity;
import dev.cairn.sidecar.core.TaskAttempt;
import dev.cairn.sidecar.hook.AttemptNumber;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.StateUnreadableException;
import dev.cairn.sidecar.kafka.StartupReads.Deadline;
import dev.cairn.sidecar.kafka.StartupReads.RestoreRecords;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last steps of a sidecar's start-up: register a task's attempt, then hand the worker its restore point with the
 * attempt's number (the registration's offset, which orders the job's attempts without a clock).
 */
final class Startup {

    private static final Logger LOG = LoggerFactory.getLogger(Startup.class);

    /** How long start-up waits between two reads of the completed topic while it waits for a restore point. */
    static final Duration REREAD = Duration.ofMillis(200);

    private Startup() {
    }

    /**
     * What the worker was handed, the newest completion of the job seen on control before the sidecar's
     * position ({@link SnapshotRequest#NO_COMPLETED_CHECKPOINT}: none), which the core must count as completed, and
     * the job's discards seen there, which the core hands out after the restore
     * ({@link dev.cairn.sidecar.core.SidecarCore#discardedBeforeStart}).
     */
    record Restored(Optional<RestorePoint> point, long latestCompletedOnControl, List<Object> discardsOnControl) {
    }

    /**
     * Restores the worker from the newest restore point on the completed topic, never from one older than a
     * completion already visible on control ({@link RestoreCheck}): when control shows a newer restore point
     * completed, reads the completed topic again until it shows it too. A task's restore point is read whole: while
     * some of its restore parts are missing ({@link RestorePoints#missingParts}), it reads the completed topic again
     * until it shows them all.
     *
     * @throws IllegalStateException when the completed topic does not catch up by the deadline (the message names
     *         both checkpoints, or the parts missing), or the worker's restore fails
     */
    static Restored restore(SnapshotHook hook, RuntimeSettings settings, StartupSource source, Deadline deadline,
            Optional<AttemptNumber> attempt) {
        StartupReads.ControlLookBack lookBack = source.controlLookBack();
        List<CheckpointCompleted> onControl = lookBack.completions();
        RestoreRecords records = source.restoreRecords();
        RestoreCheck.Verdict verdict = RestoreCheck.check(settings.jobId(), records.retained(), onControl);
        Optional<String> waiting = waitingFor(settings, records, verdict);
        if (waiting.isPresent()) {
            LOG.info("{}: waiting for it to catch up before restoring", waiting.get());
        }
        while (waiting.isPresent()) {
            if (!deadline.passed()) {
                StartupReads.pause(REREAD);
            }
            if (deadline.passed()) {
                throw new IllegalStateException(waiting.get() + ", still after " + deadline.total().toMillis()
                        + " ms; not restoring the worker " + (verdict instanceof RestoreCheck.AwaitCompleted
                                ? "behind a completed checkpoint" : "from part of a checkpoint"));
            }
            records = source.restoreRecords();
            verdict = RestoreCheck.check(settings.jobId(), records.retained(), onControl);
            waiting = waitingFor(settings, records, verdict);
        }
        Optional<RestorePoint> point;
        if (settings.isParticipant()) {
            point = RestorePoints.participant(records.retained(), settings.participant());
        } else {
            point = RestorePoints.latest(records.retained(), records.parts().values(), settings.taskId(),
                    settings.subtaskIndex());
            warnIfGone(settings, records);
        }
        restore(hook, settings, point, attempt);
        return new Restored(point, verdict.latestCompletedOnControl(), lookBack.discards());
    }

    /**
     * What start-up waits for before it restores, as it says so; empty when it may restore: control shows a newer
     * restore point completed than the completed topic, or (for a task) the completed topic shows only some of the
     * restore parts of its newest checkpoint.
     */
    private static Optional<String> waitingFor(RuntimeSettings settings, RestoreRecords records,
            RestoreCheck.Verdict verdict) {
        if (verdict instanceof RestoreCheck.AwaitCompleted awaited) {
            return Optional.of(settings.topics().control() + " shows checkpoint " + awaited.checkpointId()
                    + " of job " + settings.jobId() + " completed, but " + settings.topics().completed() + " shows "
                    + describe(RestoreCheck.newestRetained(records.retained())) + " as its restore point");
        }
        if (settings.isParticipant()) {
            return Optional.empty();
        }
        return RestorePoints.missingParts(records.retained(), records.parts().values())
                .map(missing -> settings.topics().completed() + " shows " + missing + " of job " + settings.jobId());
    }

    /**
     * Says so when the job restores its task with fewer subtasks than this one's index: the worker was deployed
     * with an index the job no longer has, and starts with nothing to restore.
     */
    private static void warnIfGone(RuntimeSettings settings, RestoreRecords records) {
        RestorePoints.restoredTask(records.retained(), records.parts().values(), settings.taskId())
                .filter(task -> settings.subtaskIndex() >= task.getParallelism())
                .ifPresent(task -> LOG.warn("Task {} subtask {} of job {}: the job restores checkpoint {} with"
                        + " parallelism {} for task {} (previously {}), so it has no subtask {} any more; the worker"
                        + " starts with nothing to restore. Was it deployed with the job's old parallelism?",
                        settings.taskId(), settings.subtaskIndex(), settings.jobId(),
                        RestoreCheck.newestRetained(records.retained()), task.getParallelism(), settings.taskId(),
                        task.getPreviousParallelism(), settings.subtaskIndex()));
    }

    /**
     * {@link #restore}, and when the worker finds the restore point's state unreadable
     * ({@link StateUnreadableException}), a task reports it to the coordinator ({@code RestoreFailed}, written before
     * the start-up fails) so that the job falls back to the previous retained checkpoint.
     */
    static Restored restoreOrReport(SnapshotHook hook, RuntimeSettings settings, StartupSource source,
            Deadline deadline, Optional<AttemptNumber> attempt, KafkaProducer<String, AckEnvelope> producer,
            SidecarIdentity identity, Clock clock) {
        try {
            return restore(hook, settings, source, deadline, attempt);
        } catch (UnreadableRestorePoint e) {
            if (identity instanceof TaskAttempt task) {
                RestoreFailed failed = AckEvents.restoreFailed(task, e.checkpointId(), e.getMessage(), clock.millis());
                try {
                    producer.send(new ProducerRecord<>(settings.topics().acks(), settings.jobId(),
                            new AckEnvelope(failed))).get(deadline.remaining().toMillis(), TimeUnit.MILLISECONDS);
                    LOG.error("Task {} subtask {} of job {} cannot read checkpoint {}: reported to the coordinator,"
                            + " which falls back to the previous retained checkpoint if the job has one",
                            settings.taskId(), settings.subtaskIndex(), settings.jobId(), e.checkpointId());
                } catch (ExecutionException | TimeoutException ex) {
                    LOG.error("Could not report the unreadable checkpoint {} to {}", e.checkpointId(),
                            settings.topics().acks(), ex);
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            }
            throw e;
        }
    }

    /** The worker could not read the state of the restore point (checkpoint {@code checkpointId}). */
    static final class UnreadableRestorePoint extends IllegalStateException {
        private static final long serialVersionUID = 1L;
        private final long checkpointId;

        UnreadableRestorePoint(long checkpointId, String message, Throwable cause) {
            super(message, cause);
            this.checkpointId = checkpointId;
        }

        long checkpointId() {
            return checkpointId;
        }
    }

    private static String describe(long restorePointId) {
        return restorePointId == SnapshotRequest.NO_COMPLETED_CHECKPOINT ? "no checkpoint"
                : "checkpoint " + restorePointId;
    }

    /**
     * Calls the worker's restore hook (with the attempt's number for a task, without for a participant); its
     * failure fails the start-up.
     */
    static void restore(SnapshotHook hook, RuntimeSettings settings, Optional<RestorePoint> point,
            Optional<AttemptNumber> attempt) {
        LOG.info("Restoring {} of job {} from {}", settings.isParticipant() ? "participant " + settings.participant()
                : "task " + settings.taskId() + " subtask " + settings.subtaskIndex(), settings.jobId(),
                point.map(Startup::describe).orElse("nothing (fresh start)"));
        try {
            if (attempt.isPresent()) {
                hook.restore(point, attempt.get());
            } else {
                hook.restore(point);
            }
        } catch (Exception e) {
            String message = "the worker's restore from " + point.map(p -> p.rescaled() ? "checkpoint "
                    + p.checkpointId() + " (rescaled)" : p.location()).orElse("nothing") + " failed: " + e.getMessage();
            if (point.isPresent() && unreadable(e)) {
                throw new UnreadableRestorePoint(point.get().checkpointId(), "checkpoint "
                        + point.get().checkpointId() + " cannot be restored: " + message, e);
            }
            throw new IllegalStateException(message, e);
        }
    }

    /**
     * A restore point as start-up logs it: the checkpoint and the own state's location, or after a rescale the
     * parallelism then and now, the key groups the subtask owns and how many states it reads.
     */
    private static String describe(RestorePoint point) {
        if (!point.rescaled()) {
            return "checkpoint " + point.checkpointId() + " (" + point.location() + ")";
        }
        return "checkpoint " + point.checkpointId() + ", rescaled from parallelism " + point.previousParallelism()
                + " to " + point.parallelism() + ": key groups " + point.keyGroups() + ", " + point.states().size()
                + " state(s) to read";
    }

    private static boolean unreadable(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof StateUnreadableException) {
                return true;
            }
        }
        return false;
    }

    /** A registered attempt: the start time its {@code TaskStarted} carries, and the attempt's number. */
    record Registered(long startedAtMs, AttemptNumber number) {
    }

    /**
     * Publishes {@code TaskStarted}, started now, and waits (until the deadline) for the broker to have it; returns
     * the start time it carries and its offset as the attempt's number.
     */
    static Registered register(KafkaProducer<String, AckEnvelope> producer, RuntimeSettings settings,
            TaskAttempt attempt, Clock clock, Deadline deadline) {
        long startedAtMs = clock.millis();
        try {
            RecordMetadata written = producer.send(new ProducerRecord<>(settings.topics().acks(), settings.jobId(),
                    new AckEnvelope(AckEvents.started(attempt, startedAtMs))))
                    .get(deadline.remaining().toMillis(), TimeUnit.MILLISECONDS);
            return new Registered(startedAtMs, new AttemptNumber(attempt.attemptId(), written.offset()));
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("could not register " + attempt + " on " + settings.topics().acks()
                    + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while registering " + attempt, e);
        }
    }
}
