package dev.cairn.coordinator.cli;

import dev.cairn.events.RequestEnvelope;
import java.time.Duration;
import java.util.Map;

/** Produces one request to Kafka and waits for the broker's acknowledgement. */
public interface RequestSender extends AutoCloseable {

    /**
     * Produces {@code envelope} keyed by {@code jobId} and waits until the broker has acknowledged it.
     *
     * @return where the request was written
     * @throws SendFailedException when it was not acknowledged in time
     */
    Delivery send(String topic, String jobId, RequestEnvelope envelope);

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

    /** Opens a sender: the real one opens a Kafka producer, tests record what would have been sent. */
    @FunctionalInterface
    interface Factory {

        /**
         * @param producerConfig the producer's configuration, see {@link ProducerSettings}
         * @param sendTimeout how long one send may take
         * @throws IllegalArgumentException when the configuration is refused
         */
        RequestSender open(Map<String, Object> producerConfig, Duration sendTimeout);
    }
}
