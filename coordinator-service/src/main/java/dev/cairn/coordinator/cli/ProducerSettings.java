package dev.cairn.coordinator.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The producer configuration of one CLI run. The entries of the {@code --kafka-config} file come first
 * (security settings, client id, ...); on top of them go what a Cairn request needs: an idempotent
 * producer with {@code acks=all} that gives up after {@code --send-timeout-ms}.
 *
 * <p>Settings the file may not change are refused with a message naming the file and the key, rather than
 * overridden silently. {@code bootstrap.servers} is taken from {@code --bootstrap-servers} (or its
 * environment variable) when given, else from the file, else {@code localhost:9092}.
 */
final class ProducerSettings {

    /** Used when neither the flag, its environment variable nor the file name the brokers. */
    static final String DEFAULT_BOOTSTRAP_SERVERS = "localhost:9092";

    private static final String KAFKA_CONFIG = "--kafka-config";
    private static final int MAX_REQUEST_TIMEOUT_MS = 30_000;

    private ProducerSettings() {
    }

    /**
     * The producer configuration.
     *
     * @param bootstrapServers the flag's value, {@code null} or blank when it was not given
     * @param kafkaConfig the properties file, {@code null} for none
     * @param sendTimeout how long producing one request may take, positive
     * @throws IllegalArgumentException naming the flag or file that is wrong
     */
    static Map<String, Object> of(String bootstrapServers, Path kafkaConfig, Duration sendTimeout) {
        if (sendTimeout.isNegative() || sendTimeout.isZero() || sendTimeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--send-timeout-ms must be between 1 and " + Integer.MAX_VALUE
                    + ", was " + sendTimeout.toMillis());
        }
        Map<String, String> file = kafkaConfig == null ? Map.of() : read(kafkaConfig);
        refuseConflicts(file, kafkaConfig);

        Map<String, Object> config = new TreeMap<>(file);
        config.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "cairn-cli");
        config.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, "0");
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(bootstrapServers, file));
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        int timeoutMs = (int) sendTimeout.toMillis();
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, String.valueOf(timeoutMs));
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, String.valueOf(timeoutMs));
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, String.valueOf(Math.min(timeoutMs, MAX_REQUEST_TIMEOUT_MS)));
        return config;
    }

    private static String bootstrap(String flag, Map<String, String> file) {
        if (flag != null && !flag.isBlank()) {
            return flag.strip();
        }
        String fromFile = file.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG);
        return fromFile != null && !fromFile.isBlank() ? fromFile.strip() : DEFAULT_BOOTSTRAP_SERVERS;
    }

    private static void refuseConflicts(Map<String, String> file, Path path) {
        String acks = file.get(ProducerConfig.ACKS_CONFIG);
        if (acks != null && !acks.strip().equals("all") && !acks.strip().equals("-1")) {
            throw new IllegalArgumentException(KAFKA_CONFIG + ": " + path + " sets acks=" + acks
                    + ", but a Cairn request must be written with acks=all; remove the entry");
        }
        String idempotence = file.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG);
        if (idempotence != null && !idempotence.strip().equalsIgnoreCase("true")) {
            throw new IllegalArgumentException(KAFKA_CONFIG + ": " + path + " sets enable.idempotence="
                    + idempotence + ", but Cairn requests are produced idempotently; remove the entry");
        }
        if (file.containsKey(ProducerConfig.TRANSACTIONAL_ID_CONFIG)) {
            throw new IllegalArgumentException(KAFKA_CONFIG + ": " + path
                    + " sets transactional.id, but the CLI produces one request without a transaction; remove the entry");
        }
        for (String timeout : new String[] {ProducerConfig.MAX_BLOCK_MS_CONFIG, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG}) {
            if (file.containsKey(timeout)) {
                throw new IllegalArgumentException(KAFKA_CONFIG + ": " + path + " sets " + timeout
                        + ", which the CLI derives from --send-timeout-ms; remove the entry and pass that flag instead");
            }
        }
    }

    /** Reads a properties file, naming the file in any error. */
    static Map<String, String> read(Path file) {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new IllegalArgumentException(KAFKA_CONFIG + ": cannot read " + file);
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException(KAFKA_CONFIG + ": " + file + " is not a properties file: "
                    + e.getMessage(), e);
        }
        Map<String, String> values = new TreeMap<>();
        properties.stringPropertyNames().forEach(name -> values.put(name, properties.getProperty(name)));
        return values;
    }
}
