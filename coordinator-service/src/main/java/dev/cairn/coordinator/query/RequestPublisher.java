package dev.cairn.coordinator.query;

import dev.cairn.events.JobSpec;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.TriggerRequest;

/**
 * Where the REST API sends the requests it accepts (trigger requests, job specs): the requests topic,
 * keyed by job id, so that every request of a job reaches the stream task that owns it.
 */
@FunctionalInterface
public interface RequestPublisher extends AutoCloseable {

    /**
     * Sends the request keyed by {@code jobId} and returns once it is durably in the topic.
     *
     * @throws ApiException 503 when it could not be sent
     */
    void publish(String jobId, RequestEnvelope request);

    /** Sends a trigger request ({@code POST /jobs/{jobId}/checkpoints}). */
    default void publish(TriggerRequest request) {
        publish(request.getJobId(), new RequestEnvelope(request));
    }

    /** Sends a job spec ({@code PUT /jobs/{jobId}}): registers the job or replaces its spec. */
    default void publish(JobSpec spec) {
        publish(spec.getJobId(), new RequestEnvelope(spec));
    }

    @Override
    default void close() {
    }
}
