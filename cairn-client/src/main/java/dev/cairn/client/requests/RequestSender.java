package dev.cairn.client.requests;

import dev.cairn.auth.SigningKey;
import dev.cairn.events.DisposeSavepoint;
import dev.cairn.events.RemoveJob;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RescaleJob;
import dev.cairn.events.RestoreJob;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Produces requests (job specs, trigger requests, status changes, restores, rescales, savepoint disposals and job
 * removals) to the
 * requests topic, keyed by job id so that every request of a job reaches the stream task that owns it, signed with
 * the requests key (a coordinator with a master key takes no other), and waits for the broker's acknowledgement. The
 * REST API and the CLI both send through one ({@link KafkaRequestSender}).
 */
public interface RequestSender extends AutoCloseable {

    /**
     * Produces {@code envelope} keyed by {@code jobId} and waits until the broker has acknowledged it.
     *
     * @return where the request was written
     * @throws SendFailedException when it was not acknowledged in time
     */
    Delivery send(String jobId, RequestEnvelope envelope);

    /**
     * Sends a restore of a job that is not RUNNING from one of its savepoints or retained checkpoints (Flink:
     * {@code flink run -s}), keyed and signed like every request.
     */
    default Delivery send(RestoreJob restore) {
        return send(restore.getJobId(), new RequestEnvelope(restore));
    }

    /**
     * Sends a change of the parallelism of some of a job's tasks (Flink's Kubernetes operator: stop with a savepoint,
     * change the parallelism, resume from the savepoint), keyed and signed like every request.
     */
    default Delivery send(RescaleJob rescale) {
        return send(rescale.getJobId(), new RequestEnvelope(rescale));
    }

    /** Sends the disposal of one of a job's savepoints (Flink: {@code flink savepoint -d}). */
    default Delivery send(DisposeSavepoint dispose) {
        return send(dispose.getJobId(), new RequestEnvelope(dispose));
    }

    /** Sends the removal of a job that is not RUNNING, keyed and signed like every request. */
    default Delivery send(RemoveJob remove) {
        return send(remove.getJobId(), new RequestEnvelope(remove));
    }

    @Override
    void close();

    /**
     * Where the broker wrote a request.
     *
     * @param topic the requests topic
     * @param partition the partition of the job's key
     * @param offset the record's offset
     */
    record Delivery(String topic, int partition, long offset) {

        /** {@code cairn.requests (partition 0, offset 12)}. */
        public String describe() {
            return topic + " (partition " + partition + ", offset " + offset + ")";
        }
    }

    /** Opens a sender: the real one is a {@link KafkaRequestSender}, tests record what would have been sent. */
    @FunctionalInterface
    interface Factory {

        /**
         * @param producerSettings the producer's connection and security settings
         * @param topic the requests topic
         * @param sendTimeout how long one send may take
         * @param requestsKey the key every request is signed with; empty sends them unsigned
         * @throws IllegalArgumentException when the settings are refused
         */
        RequestSender open(Map<String, Object> producerSettings, String topic, Duration sendTimeout,
                Optional<SigningKey> requestsKey);
    }
}
