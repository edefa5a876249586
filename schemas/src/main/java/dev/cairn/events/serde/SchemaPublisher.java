package dev.cairn.events.serde;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the schemas a program writes to the schemas topic ({@code <prefix>schemas}, compacted), so that a
 * reader of another release, which does not ship them, resolves them there ({@link SchemaCatalog}). Every writer
 * does this once at start, before it writes a record: the coordinator for its journal, control, completed and
 * request records, a sidecar for its acks, the CLI and the REST API for their requests.
 *
 * <p>One record per schema: the key is the schema's 64-bit fingerprint (the one single-object encoding writes) in
 * 16 lower-case hex digits ({@link #key}), the value its parsing canonical form in UTF-8 ({@link #value}), the form
 * the fingerprint is computed over. The same schema always makes the same record, so publishing again, from every
 * instance at every start, changes nothing that compaction keeps.
 *
 * <p>A failure never stops the program: it is logged as a warning and {@link #publish} answers {@code false}. The
 * topic may not exist (created by a coordinator of an earlier release, which does not know it: the schemas are then
 * published by the first coordinator of this release), or the program may not be allowed to write it. The topic is
 * looked up with an admin client before anything is sent, so that a broker that creates topics on first use does
 * not create it with the wrong settings.
 */
public final class SchemaPublisher {

    /** How long one publication may take by default (the topic's look-up, then the writes). */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    private static final Logger LOG = LoggerFactory.getLogger(SchemaPublisher.class);
    private static final int MAX_REQUEST_TIMEOUT_MS = 30_000;

    private SchemaPublisher() {
    }

    /** The key of a schema's record: its fingerprint in 16 lower-case hex digits. */
    public static String key(Schema schema) {
        return key(AvroEventSerde.fingerprint(schema));
    }

    /** A fingerprint as a key: 16 lower-case hex digits. */
    public static String key(long fingerprint) {
        return String.format("%016x", fingerprint);
    }

    /** The value of a schema's record: its parsing canonical form, in UTF-8. */
    public static byte[] value(Schema schema) {
        return SchemaNormalization.toParsingForm(schema).getBytes(StandardCharsets.UTF_8);
    }

    /** The current schema of each generated class. */
    public static List<Schema> schemasOf(Collection<Class<? extends SpecificRecord>> types) {
        return types.stream().map(type -> SpecificData.get().getSchema(type)).toList();
    }

    /** {@link #publish(Map, String, Collection, Duration)} within {@link #DEFAULT_TIMEOUT}. */
    public static boolean publish(Map<String, ?> clientConfig, String topic,
            Collection<Class<? extends SpecificRecord>> types) {
        return publish(clientConfig, topic, types, DEFAULT_TIMEOUT);
    }

    /**
     * Writes the current schema of each of {@code types} to {@code topic} and waits until the broker has them.
     * Never throws: what went wrong is logged as a warning.
     *
     * @param clientConfig the connection and security settings ({@code bootstrap.servers}, {@code security.*},
     *     {@code client.id}, ...); settings the producer or the admin client does not know are left out, and
     *     acks, idempotence and the time-outs are set here
     * @param topic the schemas topic
     * @param types the generated classes whose current schemas this program writes
     * @param timeout how long the whole publication may take
     * @return whether the broker acknowledged every schema
     */
    public static boolean publish(Map<String, ?> clientConfig, String topic,
            Collection<Class<? extends SpecificRecord>> types, Duration timeout) {
        return publishSchemas(clientConfig, topic, schemasOf(types), timeout);
    }

    /**
     * Writes {@code schemas} to {@code topic} and waits until the broker has them, as
     * {@link #publish(Map, String, Collection, Duration)} does with the current schemas of generated classes. Never
     * throws: what went wrong is logged as a warning.
     *
     * @return whether the broker acknowledged every schema
     */
    public static boolean publishSchemas(Map<String, ?> clientConfig, String topic, List<Schema> schemas,
            Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            if (!topicExists(clientConfig, topic, timeout)) {
                LOG.warn("Did not publish the schemas of {} to {}: the topic does not exist (a coordinator of this "
                        + "release creates it); readers of another release cannot read what this program writes "
                        + "with a schema they do not ship", names(schemas), topic);
                return false;
            }
            send(clientConfig, topic, schemas, remaining(deadline));
            LOG.debug("Published the schemas of {} to {}", names(schemas), topic);
            return true;
        } catch (ExecutionException e) {
            warn(schemas, topic, e.getCause());
        } catch (TimeoutException e) {
            warn(schemas, topic, new TimeoutException("not done within " + timeout.toMillis() + " ms"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            warn(schemas, topic, e);
        } catch (RuntimeException e) {
            warn(schemas, topic, e);
        }
        return false;
    }

    private static boolean topicExists(Map<String, ?> clientConfig, String topic, Duration timeout)
            throws InterruptedException, ExecutionException, TimeoutException {
        Map<String, Object> config = only(clientConfig, AdminClientConfig.configNames());
        int timeoutMs = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(timeoutMs, MAX_REQUEST_TIMEOUT_MS));
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId(clientConfig) + "-admin");
        try (Admin admin = Admin.create(config)) {
            admin.describeTopics(List.of(topic)).allTopicNames().get(timeoutMs, TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return false;
            }
            throw e;
        }
    }

    private static void send(Map<String, ?> clientConfig, String topic, List<Schema> schemas, Duration timeout)
            throws InterruptedException, ExecutionException, TimeoutException {
        Map<String, Object> config = only(clientConfig, ProducerConfig.configNames());
        int timeoutMs = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        int requestTimeoutMs = Math.min(timeoutMs, MAX_REQUEST_TIMEOUT_MS);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, clientId(clientConfig));
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeoutMs);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, requestTimeoutMs);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Math.max(timeoutMs, requestTimeoutMs));
        config.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        long deadline = System.nanoTime() + timeout.toNanos();
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(config, new StringSerializer(),
                new ByteArraySerializer())) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (Schema schema : schemas) {
                sent.add(producer.send(new ProducerRecord<>(topic, key(schema), value(schema))));
            }
            for (Future<RecordMetadata> each : sent) {
                each.get(remaining(deadline).toMillis(), TimeUnit.MILLISECONDS);
            }
        }
    }

    /** The entries of {@code config} whose keys the client knows (others would only be logged as unknown). */
    private static Map<String, Object> only(Map<String, ?> config, Set<String> known) {
        Map<String, Object> kept = new HashMap<>();
        config.forEach((key, value) -> {
            if (known.contains(key)) {
                kept.put(key, value);
            }
        });
        return kept;
    }

    private static String clientId(Map<String, ?> clientConfig) {
        Object given = clientConfig.get(CommonClientConfigs.CLIENT_ID_CONFIG);
        return (given == null || given.toString().isBlank() ? "cairn" : given.toString()) + "-schemas";
    }

    private static Duration remaining(long deadlineNanos) {
        return Duration.ofNanos(Math.max(1_000_000, deadlineNanos - System.nanoTime()));
    }

    private static List<String> names(List<Schema> schemas) {
        return schemas.stream().map(schema -> schema.getName() + " " + key(schema)).toList();
    }

    private static void warn(List<Schema> schemas, String topic, Throwable error) {
        LOG.warn("Could not publish the schemas of {} to {}: {}; readers of another release cannot read what this "
                + "program writes with a schema they do not ship (a later start publishes them again)",
                names(schemas), topic, String.valueOf(error));
    }
}
