package dev.cairn.coordinator.query;

import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.serde.CairnSerdes;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Produces the REST API's requests (trigger requests, job specs) to the requests topic with an idempotent
 * producer, acks=all, one at a time.
 */
public final class KafkaRequestPublisher implements RequestPublisher {

    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(15);

    private final String topic;
    private final KafkaProducer<String, RequestEnvelope> producer;

    /**
     * @param bootstrapServers Kafka's bootstrap servers
     * @param kafkaProperties passed to the producer as they are (security settings and the like)
     * @param topic the requests topic
     */
    public KafkaRequestPublisher(String bootstrapServers, Map<String, String> kafkaProperties, String topic) {
        Map<String, Object> props = new HashMap<>(kafkaProperties);
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) SEND_TIMEOUT.toMillis() - 1_000);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "cairn-rest-requests");
        this.topic = topic;
        this.producer = new KafkaProducer<>(props, new StringSerializer(), CairnSerdes.requests().serializer());
    }

    @Override
    public void publish(String jobId, RequestEnvelope request) {
        try {
            producer.send(new ProducerRecord<>(topic, jobId, request))
                    .get(SEND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiException.unavailable("interrupted while sending the request to " + topic);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw ApiException.unavailable("cannot send the request to " + topic + ": " + cause);
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
