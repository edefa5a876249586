package dev.cairn.pipeline;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Extra Kafka client settings for a pipeline task's own producers and consumers (not its sidecar's), written as one
 * line: {@code key=value} pairs separated by commas, e.g. {@code delivery.timeout.ms=3000,request.timeout.ms=1500}.
 * Blanks around keys and values are dropped; a value may hold {@code =} but no comma (a list-valued setting goes in a
 * {@code kafka.*} key instead). This is how a supervisor gives its workers settings that must not reach the sidecar:
 * a short {@code delivery.timeout.ms} that lets the task's batches expire while a partition has no leader would also
 * let the sidecar's acks expire, and the sidecar keeps its own long timeout to ride out a broker restart.
 *
 * <p>The text is checked before any client exists, so that a worker with a bad value exits with a message instead
 * of failing at each restart: every entry must be a pair with a key and a value, no key may come twice,
 * {@code bootstrap.servers} has its own key, and a {@code delivery.timeout.ms} given here must be at least
 * {@code linger.ms + request.timeout.ms} (each as given here, else the producer's default), as the producer
 * requires.
 */
public final class TaskClientSettings {

    private TaskClientSettings() {
    }

    /**
     * The settings {@code text} holds, in their order; none for a blank text.
     *
     * @throws IllegalArgumentException naming the entry that is malformed and why
     */
    public static Map<String, String> parse(String text) {
        Map<String, String> settings = new LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            return settings;
        }
        String[] entries = text.split(",", -1);
        for (int i = 0; i < entries.length; i++) {
            String entry = entries[i].trim();
            String where = "entry " + (i + 1) + " of \"" + text + "\"";
            if (entry.isEmpty()) {
                throw new IllegalArgumentException(where + " is empty; write key=value pairs separated by commas");
            }
            int equals = entry.indexOf('=');
            if (equals < 0) {
                throw new IllegalArgumentException(where + ", \"" + entry + "\", is not a key=value pair");
            }
            String key = entry.substring(0, equals).trim();
            String value = entry.substring(equals + 1).trim();
            if (key.isEmpty()) {
                throw new IllegalArgumentException(where + ", \"" + entry + "\", has no key before '='");
            }
            if (value.isEmpty()) {
                throw new IllegalArgumentException(where + ", \"" + entry + "\", has no value after '='");
            }
            if (key.equals(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG)) {
                throw new IllegalArgumentException(where + " sets " + key + ", which has its own key, "
                        + PipelineKeys.BOOTSTRAP_SERVERS);
            }
            if (settings.put(key, value) != null) {
                throw new IllegalArgumentException(where + " sets " + key + " a second time");
            }
        }
        checkDeliveryTimeout(settings, text);
        return settings;
    }

    /**
     * {@code settings} as {@link #parse} reads them.
     *
     * @throws IllegalArgumentException for a key or value that cannot be written so (blank, a comma, '=' in a key)
     */
    public static String format(Map<String, String> settings) {
        StringBuilder text = new StringBuilder();
        settings.forEach((key, value) -> {
            if (key.isBlank() || key.contains(",") || key.contains("=") || value.isBlank() || value.contains(",")) {
                throw new IllegalArgumentException("the task client setting " + key + "=" + value + " cannot be "
                        + "given as a key=value pair between commas: a key and a value must be non-blank and hold "
                        + "no comma, a key no '='");
            }
            text.append(text.length() == 0 ? "" : ",").append(key.trim()).append('=').append(value.trim());
        });
        parse(text.toString());
        return text.toString();
    }

    private static void checkDeliveryTimeout(Map<String, String> settings, String text) {
        if (!settings.containsKey(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG)) {
            return;
        }
        long delivery = millis(settings, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, text);
        long linger = millis(settings, ProducerConfig.LINGER_MS_CONFIG, text);
        long request = millis(settings, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, text);
        if (delivery < linger + request) {
            throw new IllegalArgumentException("\"" + text + "\" sets " + ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG
                    + "=" + delivery + ", less than " + ProducerConfig.LINGER_MS_CONFIG + " (" + linger + ") + "
                    + ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG + " (" + request + "), which the producer refuses; "
                    + "give a lower " + ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG + " too");
        }
    }

    /** The value of {@code key} in {@code settings}, else the producer's default. */
    private static long millis(Map<String, String> settings, String key, String text) {
        String value = settings.get(key);
        if (value == null) {
            return ((Number) ProducerConfig.configDef().defaultValues().get(key)).longValue();
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("\"" + text + "\" sets " + key + "=" + value + ", which is not a "
                    + "number of milliseconds", e);
        }
    }
}
