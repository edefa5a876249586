package dev.cairn.coordinator.cli;

import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.serde.CairnSerdes;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
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
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Sends with a {@link KafkaProducer} configured by {@link ProducerSettings}, after checking with an admin
 * client (same connection and security settings) that the topic exists: a broker that creates topics on
 * first use would otherwise turn a mistyped {@code --topic-prefix} into a request that nobody reads.
 *
 * <p>Each step is bounded by the send timeout: the topic check, the wait for metadata
 * ({@code max.block.ms}) and the wait for the acknowledgement ({@code delivery.timeout.ms}).
 */
final class KafkaRequestSender implements RequestSender {

    private static final Duration MARGIN = Duration.ofSeconds(5);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    private final String bootstrapServers;
    private final Duration sendTimeout;
    private final Admin admin;
    private final KafkaProducer<String, RequestEnvelope> producer;

    KafkaRequestSender(Map<String, Object> producerConfig, Duration sendTimeout) {
        this.bootstrapServers = String.valueOf(producerConfig.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG));
        this.sendTimeout = sendTimeout;
        Admin createdAdmin = null;
        try {
            createdAdmin = Admin.create(adminConfig(producerConfig, sendTimeout));
            this.producer = new KafkaProducer<>(producerConfig, new StringSerializer(),
                    CairnSerdes.requests().serializer());
            this.admin = createdAdmin;
        } catch (KafkaException e) {
            if (createdAdmin != null) {
                createdAdmin.close(Duration.ZERO);
            }
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IllegalArgumentException("cannot create a Kafka client for --bootstrap-servers "
                    + bootstrapServers + " with the given --kafka-config: " + cause.getMessage(), e);
        }
    }

    /** The producer's connection and security settings, with the admin's timeouts set to the send timeout. */
    private static Map<String, Object> adminConfig(Map<String, Object> producerConfig, Duration sendTimeout) {
        Map<String, Object> config = new HashMap<>();
        producerConfig.forEach((key, value) -> {
            if (AdminClientConfig.configNames().contains(key)) {
                config.put(key, value);
            }
        });
        int timeoutMs = (int) sendTimeout.toMillis();
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(timeoutMs));
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, String.valueOf(Math.min(timeoutMs, 30_000)));
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, producerConfig.get(ProducerConfig.CLIENT_ID_CONFIG) + "-admin");
        return config;
    }

    @Override
    public Delivery send(String topic, String jobId, RequestEnvelope envelope) {
        String what = envelope.getEvent().getClass().getSimpleName() + " of job '" + jobId + "' to " + topic
                + " at " + bootstrapServers;
        requireTopic(topic, what);
        try {
            Future<RecordMetadata> acked = producer.send(new ProducerRecord<>(topic, jobId, envelope));
            RecordMetadata written = acked.get(2 * sendTimeout.toMillis() + MARGIN.toMillis(), TimeUnit.MILLISECONDS);
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

    private void requireTopic(String topic, String what) {
        try {
            admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(sendTimeout.toMillis() + MARGIN.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                throw new SendFailedException("did not send the " + what + ": the topic does not exist. Start the "
                        + "coordinator first (it creates its topics), or check --topic-prefix.", e.getCause());
            }
            throw failed(what, e.getCause());
        } catch (TimeoutException | KafkaException e) {
            throw failed(what, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SendFailedException("interrupted while looking up " + topic, e);
        }
    }

    private SendFailedException failed(String what, Throwable cause) {
        return new SendFailedException("could not send the " + what + " within " + sendTimeout.toMillis()
                + " ms (--send-timeout-ms): " + cause.getMessage() + System.lineSeparator()
                + "Check that the brokers are reachable, that the --kafka-config settings (security) are right, "
                + "and that the topic exists (the coordinator creates it at start-up; check --topic-prefix).", cause);
    }

    @Override
    public void close() {
        producer.close(CLOSE_TIMEOUT);
        admin.close(CLOSE_TIMEOUT);
    }
}
