package dev.cairn.coordinator.testbed;

import dev.cairn.auth.SigningKey;
import dev.cairn.auth.SigningSerializer;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.EnvelopeJobIds;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The producers of a {@link CoordinatorTestBed}, as users and sidecars send: idempotent, {@code acks=all}, requests
 * signed with the requests key and sidecar records with their job's key, both derived from the bed's master key
 * ({@code null}: unsigned). Each send waits for the broker's acknowledgement.
 */
final class BedProducers {

    private BedProducers() {
    }

    /** Requests, signed with {@code master}'s requests key unless {@code master} is null. */
    static KafkaProducer<String, RequestEnvelope> requests(String bootstrapServers, SigningKey master) {
        return new KafkaProducer<>(props(bootstrapServers), new StringSerializer(), master == null
                ? CairnSerdes.requests().serializer()
                : new SigningSerializer<>(CairnSerdes.requests().serializer(), master.requestsKey()));
    }

    /** Sidecar records, each signed with its job's key derived from {@code master} unless {@code master} is null. */
    static KafkaProducer<String, AckEnvelope> acks(String bootstrapServers, SigningKey master) {
        return new KafkaProducer<>(props(bootstrapServers), new StringSerializer(), master == null
                ? CairnSerdes.acks().serializer()
                : new SigningSerializer<>(CairnSerdes.acks().serializer(),
                        envelope -> master.jobKey(EnvelopeJobIds.of(envelope))));
    }

    /** Produces {@code value} keyed by {@code key}. */
    static <V> void send(KafkaProducer<String, V> producer, String topic, String key, V value) {
        try {
            producer.send(new ProducerRecord<>(topic, key, value)).get();
        } catch (Exception e) {
            throw new AssertionError("cannot produce to " + topic, e);
        }
    }

    /** Produces raw bytes with exactly {@code headers}, through a producer of its own. */
    static void sendRaw(String bootstrapServers, String topic, String key, byte[] value, Headers headers) {
        try (KafkaProducer<String, byte[]> raw =
                     new KafkaProducer<>(props(bootstrapServers), new StringSerializer(), new ByteArraySerializer())) {
            raw.send(new ProducerRecord<>(topic, null, key, value, headers)).get();
        } catch (Exception e) {
            throw new AssertionError("cannot produce to " + topic, e);
        }
    }

    private static Map<String, Object> props(String bootstrapServers) {
        return Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.LINGER_MS_CONFIG, 0);
    }
}
