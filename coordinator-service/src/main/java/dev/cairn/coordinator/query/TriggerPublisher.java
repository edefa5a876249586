package dev.cairn.coordinator.query;

import dev.cairn.events.TriggerRequest;

/** Where the REST API sends the trigger requests it accepts: the requests topic, keyed by job id. */
public interface TriggerPublisher extends AutoCloseable {

    /**
     * Sends the request and returns once it is durably in the topic.
     *
     * @throws ApiException 503 when it could not be sent
     */
    void publish(TriggerRequest request);

    @Override
    default void close() {
    }
}
