package dev.cairn.client.requests;

import dev.cairn.auth.RotatingKeys;
import dev.cairn.auth.SigningKey;
import dev.cairn.auth.SigningSerializer;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.SchemaPublisher;
import dev.cairn.events.topics.CairnTopics;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Sends requests to one topic with an idempotent {@link KafkaProducer} ({@code acks=all}, no linger), one at a
 * time, each signed with the requests key when it has one (the headers {@code cairn.sig.hmac-sha256} and
 * {@code cairn.sig.key-id}, see {@code RecordSignatures}). Before its first send it checks with an admin client
 * (same connection and security settings) that the topic exists: a broker that creates topics on first use would
 * otherwise turn a mistyped topic prefix into a request that nobody reads.
 *
 * <p>Once the topic is seen, and before its first request, it publishes the schema it writes requests with to the
 * schemas topic beside it ({@code <prefix>schemas} for {@code <prefix>requests}, {@link SchemaPublisher}), so that a
 * coordinator of an earlier release reads them; a failure to publish is only logged.
 *
 * <p>Each step is bounded by the send timeout: the topic check, the schema's publication, the wait for metadata
 * ({@code max.block.ms}) and the wait for the acknowledgement ({@code delivery.timeout.ms}).
 */
public final class KafkaRequestSender implements RequestSender {

    private static final Duration MARGIN = Duration.ofSeconds(5);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);
    private static final int MAX_REQUEST_TIMEOUT_MS = 30_000;

    private final String topic;
    private final Map<String, Object> config;
    private final String bootstrapServers;
    private final Duration sendTimeout;
    private final Admin admin;
    private final KafkaProducer<String, RequestEnvelope> producer;
    private volatile boolean topicSeen;

    /**
     * @param producerSettings the connection and security settings ({@code bootstrap.servers}, {@code
     *     security.protocol}, {@code client.id}, ...); acks, idempotence and the timeouts are set here
     * @param topic the requests topic
     * @param sendTimeout how long one send may take, at most {@link Integer#MAX_VALUE} ms
     * @param requestsKey the key every request is signed with; empty sends them unsigned
     * @throws IllegalArgumentException when Kafka refuses the settings
     */
    public KafkaRequestSender(Map<String, ?> producerSettings, String topic, Duration sendTimeout,
            Optional<SigningKey> requestsKey) {
        this(producerSettings, topic, sendTimeout, serializer(requestsKey));
    }

    /**
     * A sender that signs each request with the key in force when it is sent: during a key rotation's overlap the
     * previous requests key, which every coordinator instance accepts (restarted with the new keys or not yet), after
     * it the current one ({@link RotatingKeys#signingKeyAt}). What the REST API of a coordinator signs with.
     *
     * @param requestsKeys the requests keys of the coordinator's master keys
     * @param clock what tells whether the overlap has ended
     * @throws IllegalArgumentException when Kafka refuses the settings
     */
    public KafkaRequestSender(Map<String, ?> producerSettings, String topic, Duration sendTimeout,
            RotatingKeys requestsKeys, Clock clock) {
        this(producerSettings, topic, sendTimeout, serializer(requestsKeys, clock));
    }

    private KafkaRequestSender(Map<String, ?> producerSettings, String topic, Duration sendTimeout,
            Serializer<RequestEnvelope> serializer) {
        Map<String, Object> config = producerConfig(producerSettings, sendTimeout);
        this.topic = topic;
        this.config = config;
        this.bootstrapServers = String.valueOf(config.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG));
        this.sendTimeout = sendTimeout;
        Admin createdAdmin = null;
        try {
            createdAdmin = Admin.create(adminConfig(config, sendTimeout));
            this.producer = new KafkaProducer<>(config, new StringSerializer(), serializer);
            this.admin = createdAdmin;
        } catch (KafkaException e) {
            if (createdAdmin != null) {
                createdAdmin.close(Duration.ZERO);
            }
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IllegalArgumentException("cannot create a Kafka client for bootstrap servers "
                    + bootstrapServers + " with the given settings: " + cause.getMessage(), e);
        }
    }

    /** Avro, then the signature when there is a key: the same for every kind of request of the envelope's union. */
    static Serializer<RequestEnvelope> serializer(Optional<SigningKey> requestsKey) {
        return requestsKey.<Serializer<RequestEnvelope>>map(
                key -> new SigningSerializer<>(CairnSerdes.requests().serializer(), key))
                .orElseGet(() -> CairnSerdes.requests().serializer());
    }

    /** Avro, then the signature of the requests key in force at the moment of each send. */
    static Serializer<RequestEnvelope> serializer(RotatingKeys requestsKeys, Clock clock) {
        return new SigningSerializer<>(CairnSerdes.requests().serializer(),
                request -> requestsKeys.signingKeyAt(clock.instant()));
    }

    /** The settings with what a request needs on top: idempotent, acks=all, timeouts from the send timeout. */
    static Map<String, Object> producerConfig(Map<String, ?> settings, Duration sendTimeout) {
        Map<String, Object> config = new HashMap<>(settings);
        config.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, "0");
        config.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "cairn-requests");
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        int timeoutMs = (int) Math.min(Integer.MAX_VALUE, sendTimeout.toMillis());
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, String.valueOf(timeoutMs));
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, String.valueOf(timeoutMs));
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                String.valueOf(Math.min(timeoutMs, MAX_REQUEST_TIMEOUT_MS)));
        return config;
    }

    /** The producer's connection and security settings, with the admin's timeouts set to the send timeout. */
    private static Map<String, Object> adminConfig(Map<String, Object> producerConfig, Duration sendTimeout) {
        Map<String, Object> config = new HashMap<>();
        producerConfig.forEach((key, value) -> {
            if (AdminClientConfig.configNames().contains(key)) {
                config.put(key, value);
            }
        });
        int timeoutMs = (int) Math.min(Integer.MAX_VALUE, sendTimeout.toMillis());
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(timeoutMs));
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                String.valueOf(Math.min(timeoutMs, MAX_REQUEST_TIMEOUT_MS)));
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, producerConfig.get(ProducerConfig.CLIENT_ID_CONFIG) + "-admin");
        return config;
    }

    @Override
    public Delivery send(String jobId, RequestEnvelope envelope) {
        String what = envelope.getEvent().getClass().getSimpleName() + " of job '" + jobId + "' to " + topic
                + " at " + bootstrapServers;
        requireTopic(what);
        try {
            RecordMetadata written = producer.send(new ProducerRecord<>(topic, jobId, envelope))
                    .get(sendTimeout.toMillis() + MARGIN.toMillis(), TimeUnit.MILLISECONDS);
            return new Delivery(written.topic(), written.partition(), written.offset());
        } catch (ExecutionException e) {
            throw failed(what, e.getCause());
        } catch (TimeoutException | KafkaException e) {
            throw failed(what, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SendFailedException("interrupted while sending the " + what, e);
        }
    }

    private void requireTopic(String what) {
        if (topicSeen) {
            return;
        }
        try {
            admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(sendTimeout.toMillis() + MARGIN.toMillis(), TimeUnit.MILLISECONDS);
            topicSeen = true;
            publishSchema();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                throw new SendFailedException("did not send the " + what + ": the topic does not exist. Start the "
                        + "coordinator first (it creates its topics), or check the topic prefix.", e.getCause());
            }
            throw failed(what, e.getCause());
        } catch (TimeoutException | KafkaException e) {
            throw failed(what, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SendFailedException("interrupted while looking up " + topic, e);
        }
    }

    /** Publishes the schema of the requests to the schemas topic of the same prefix (none for another name). */
    private void publishSchema() {
        CairnTopics.of(topic, CairnTopics::requests).ifPresent(topics -> SchemaPublisher.publish(config,
                topics.schemas(), List.of(RequestEnvelope.class),
                sendTimeout.compareTo(SchemaPublisher.DEFAULT_TIMEOUT) < 0 ? sendTimeout
                        : SchemaPublisher.DEFAULT_TIMEOUT));
    }

    private SendFailedException failed(String what, Throwable cause) {
        return new SendFailedException("could not send the " + what + " within " + sendTimeout.toMillis()
                + " ms: " + cause.getMessage(), cause);
    }

    @Override
    public void close() {
        producer.close(CLOSE_TIMEOUT);
        admin.close(CLOSE_TIMEOUT);
    }
}
