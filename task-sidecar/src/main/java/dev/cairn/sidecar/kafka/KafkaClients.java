package dev.cairn.sidecar.kafka;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The client configurations of a sidecar: defaults, then the user's pass-through properties, then the few
 * settings its guarantees rest on, which cannot be overridden.
 */
final class KafkaClients {

    /** Long enough to ride out a broker restart: an ack is retried until then (Flink's default checkpoint timeout). */
    static final String DELIVERY_TIMEOUT_MS = "600000";

    private KafkaClients() {
    }

    /**
     * A consumer that is assigned partitions (no group, no commits) and reads committed records only, since
     * the coordinator writes control events and retained checkpoints in transactions.
     */
    static Map<String, Object> consumer(RuntimeSettings settings, String role) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 20);
        props.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientId(settings, role));
        props.putAll(settings.kafkaProperties());
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        return props;
    }

    /** An idempotent producer that waits for all in-sync replicas and retries through broker restarts. */
    static Map<String, Object> producer(RuntimeSettings settings) {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, DELIVERY_TIMEOUT_MS);
        props.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientId(settings, "acks"));
        props.putAll(settings.kafkaProperties());
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        return props;
    }

    private static String clientId(RuntimeSettings settings, String role) {
        String who = settings.isParticipant() ? "participant-" + settings.participant()
                : settings.taskId() + "-" + settings.subtaskIndex();
        return "cairn-sidecar-" + settings.jobId() + "-" + who + "-" + role;
    }
}
