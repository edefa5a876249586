package dev.cairn.kit.state;

import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.clients.CommonClientConfigs;

/** The checks every kit subtask's settings share, each failing with a message that says what to change. */
public final class Settings {

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]+");

    private Settings() {
    }

    /**
     * Checks an id that names files and Kafka ids: letters, digits, '.', '_' and '-'.
     *
     * @param what what the id is ("a task id", "a sink id"), for the message
     */
    public static void requireId(String what, String id) {
        if (!ID.matcher(id).matches()) {
            throw new IllegalArgumentException(what + " is made of letters, digits, '.', '_' and '-' (it names "
                    + "the state file), was \"" + id + "\"");
        }
    }

    /**
     * Checks a subtask's Kafka client settings: they name the bootstrap servers and none of the settings the
     * subtask sets itself.
     *
     * @param who the subtask's kind ("the source"), for the message
     */
    public static void requireClientSettings(String who, Map<String, Object> clientConfig, String... owned) {
        if (!clientConfig.containsKey(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG)) {
            throw new IllegalArgumentException(who + "'s client settings must name "
                    + CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
        }
        for (String key : owned) {
            if (clientConfig.containsKey(key)) {
                throw new IllegalArgumentException(who + " sets " + key + " itself; remove it from its client "
                        + "settings");
            }
        }
    }

    /** Checks that {@code duration} is positive; {@code what} names it in the message. */
    public static void requirePositive(String what, Duration duration) {
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, was " + duration);
        }
    }
}
