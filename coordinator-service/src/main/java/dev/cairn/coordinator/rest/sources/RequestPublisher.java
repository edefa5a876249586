package dev.cairn.coordinator.rest.sources;

import dev.cairn.auth.RotatingKeys;
import dev.cairn.auth.SigningKey;
import dev.cairn.client.requests.KafkaRequestSender;
import dev.cairn.client.requests.RequestSender;
import dev.cairn.client.requests.SendFailedException;
import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.events.DisposeSavepoint;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.RemoveJob;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RescaleJob;
import dev.cairn.events.RestoreJob;
import dev.cairn.events.TriggerRequest;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Where the REST API sends the requests it accepts (trigger requests, job specs, restores, rescales, disposals,
 * removals): the
 * requests topic, keyed by job id, signed with the requests key when the coordinator has a master key, through a
 * {@link RequestSender}; a send that fails is answered 503.
 */
@FunctionalInterface
public interface RequestPublisher extends AutoCloseable {

    /** How long the REST API waits for the brokers (for metadata, then for the acknowledgement). */
    Duration SEND_TIMEOUT = Duration.ofSeconds(10);

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

    /** Sends a status change ({@code PATCH /jobs/{jobId}?mode=cancel}: the job becomes CANCELED). */
    default void publish(JobStatusChange change) {
        publish(change.getJobId(), new RequestEnvelope(change));
    }

    /** Sends a restore ({@code POST /jobs/{jobId}/restore}). */
    default void publish(RestoreJob restore) {
        publish(restore.getJobId(), new RequestEnvelope(restore));
    }

    /** Sends a rescale ({@code POST /jobs/{jobId}/rescaling}). */
    default void publish(RescaleJob rescale) {
        publish(rescale.getJobId(), new RequestEnvelope(rescale));
    }

    /** Sends a job's removal ({@code DELETE /jobs/{jobId}}). */
    default void publish(RemoveJob remove) {
        publish(remove.getJobId(), new RequestEnvelope(remove));
    }

    /** Sends a savepoint's disposal ({@code POST /jobs/{jobId}/savepoints/dispose}). */
    default void publish(DisposeSavepoint dispose) {
        publish(dispose.getJobId(), new RequestEnvelope(dispose));
    }

    @Override
    default void close() {
    }

    /** Publishes through {@code sender}, answering 503 when a send fails; closing it closes the sender. */
    static RequestPublisher of(RequestSender sender) {
        return new RequestPublisher() {
            @Override
            public void publish(String jobId, RequestEnvelope request) {
                try {
                    sender.send(jobId, request);
                } catch (SendFailedException e) {
                    throw ApiException.unavailable(e.getMessage());
                }
            }

            @Override
            public void close() {
                sender.close();
            }
        };
    }

    /**
     * Publishes to {@code topic} through a {@link KafkaRequestSender}. Each request is signed with the requests key
     * in force when it is sent: during a key rotation's overlap the previous master key's, which every instance
     * accepts, whether it was restarted with the new master key yet or not (so a rolling restart loses no request),
     * after the overlap the current one's ({@link RotatingKeys#signingKeyAt}).
     *
     * @param kafkaProperties passed to the producer as they are (security settings and the like)
     * @param requestsKeys the requests keys of the master keys ({@link SigningKey#requestsKey()}); empty sends
     *     requests unsigned (a coordinator without master key)
     * @param clock what tells whether the overlap has ended
     */
    static RequestPublisher kafka(String bootstrapServers, Map<String, String> kafkaProperties, String topic,
            Optional<RotatingKeys> requestsKeys, Clock clock) {
        Map<String, Object> settings = new HashMap<>(kafkaProperties);
        settings.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        settings.put(ProducerConfig.CLIENT_ID_CONFIG, "cairn-rest-requests");
        return of(requestsKeys.map(keys -> new KafkaRequestSender(settings, topic, SEND_TIMEOUT, keys, clock))
                .orElseGet(() -> new KafkaRequestSender(settings, topic, SEND_TIMEOUT, Optional.empty())));
    }
}
