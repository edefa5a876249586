package dev.cairn.cli;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The producer configuration of one CLI run. The Kafka client settings of {@link CliKeys#clientSettings} come
 * first (the {@code kafka.config} file's security settings, client id, ... and the brokers); on top of them go
 * what a Cairn request needs: an idempotent producer with {@code acks=all} that gives up after
 * {@code send.timeout.ms}.
 *
 * <p>Settings the file may not change are refused with a message naming the key, the file and the entry, rather
 * than overridden silently.
 */
final class ProducerSettings {

    private static final int MAX_REQUEST_TIMEOUT_MS = 30_000;

    private ProducerSettings() {
    }

    /**
     * The producer configuration.
     *
     * @param client the Kafka client settings
     * @param sendTimeout how long producing one request may take, 1 ms to {@link Integer#MAX_VALUE} ms
     * @throws IllegalArgumentException naming the file and the entry that conflicts
     */
    static Map<String, Object> of(CliKeys.ClientSettings client, Duration sendTimeout) {
        refuseConflicts(client.file(), client.origin());
        Map<String, Object> config = new TreeMap<>(client.settings());
        config.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "cairn-cli");
        config.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, "0");
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        int timeoutMs = (int) sendTimeout.toMillis();
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, String.valueOf(timeoutMs));
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, String.valueOf(timeoutMs));
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                String.valueOf(Math.min(timeoutMs, MAX_REQUEST_TIMEOUT_MS)));
        return config;
    }

    private static void refuseConflicts(Map<String, String> file, String origin) {
        String acks = file.get(ProducerConfig.ACKS_CONFIG);
        if (acks != null && !acks.equals("all") && !acks.equals("-1")) {
            throw new IllegalArgumentException(origin + " sets acks=" + acks
                    + ", but a Cairn request must be written with acks=all; remove the entry");
        }
        String idempotence = file.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG);
        if (idempotence != null && !idempotence.equalsIgnoreCase("true")) {
            throw new IllegalArgumentException(origin + " sets enable.idempotence=" + idempotence
                    + ", but Cairn requests are produced idempotently; remove the entry");
        }
        if (file.containsKey(ProducerConfig.TRANSACTIONAL_ID_CONFIG)) {
            throw new IllegalArgumentException(origin
                    + " sets transactional.id, but the CLI produces one request without a transaction; remove the "
                    + "entry");
        }
        for (String timeout : new String[] {ProducerConfig.MAX_BLOCK_MS_CONFIG,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG}) {
            if (file.containsKey(timeout)) {
                throw new IllegalArgumentException(origin + " sets " + timeout + ", which the CLI derives from "
                        + CliKeys.SEND_TIMEOUT_MS + "; remove the entry and pass --send-timeout-ms instead");
            }
        }
    }
}
