package dev.cairn.sidecar.kafka;

import dev.cairn.events.AckEnvelope;
import dev.cairn.sidecar.core.AckEvents;
import dev.cairn.sidecar.core.TaskAttempt;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.kafka.StartupReads.Deadline;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The last steps of a sidecar's start-up: hand the worker its restore point, then register a task's attempt. */
final class Startup {

    private static final Logger LOG = LoggerFactory.getLogger(Startup.class);

    private Startup() {
    }

    /** Calls the worker's restore hook; its failure fails the start-up. */
    static void restore(SnapshotHook hook, RuntimeSettings settings, Optional<RestorePoint> point) {
        LOG.info("Restoring {} of job {} from {}", settings.isParticipant() ? "participant " + settings.participant()
                : "task " + settings.taskId() + " subtask " + settings.subtaskIndex(), settings.jobId(),
                point.map(p -> "checkpoint " + p.checkpointId() + " (" + p.location() + ")")
                        .orElse("nothing (fresh start)"));
        try {
            hook.restore(point);
        } catch (Exception e) {
            throw new IllegalStateException("the worker's restore from " + point.map(RestorePoint::location)
                    .orElse("nothing") + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Publishes {@code TaskStarted}, started now, and waits (until the deadline) for the broker to have it; returns
     * the start time it carries.
     */
    static long register(KafkaProducer<String, AckEnvelope> producer, RuntimeSettings settings,
            TaskAttempt attempt, Clock clock, Deadline deadline) {
        long startedAtMs = clock.millis();
        try {
            producer.send(new ProducerRecord<>(settings.topics().acks(), settings.jobId(),
                    new AckEnvelope(AckEvents.started(attempt, startedAtMs))))
                    .get(deadline.remaining().toMillis(), TimeUnit.MILLISECONDS);
            return startedAtMs;
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("could not register " + attempt + " on " + settings.topics().acks()
                    + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while registering " + attempt, e);
        }
    }
}
