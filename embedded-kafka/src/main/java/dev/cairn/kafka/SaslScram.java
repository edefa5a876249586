package dev.cairn.kafka;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * SASL on an {@link EmbeddedKafkaBroker}: its client listener takes {@code SASL_PLAINTEXT} with one SCRAM mechanism
 * ({@code SCRAM-SHA-256} or {@code SCRAM-SHA-512}), and its controller listener {@code SASL_PLAINTEXT} with
 * {@code PLAIN}, since KRaft keeps SCRAM credentials in the metadata log, which the controller serves.
 *
 * <p>Two users exist from the start, both super users ({@code super.users}): the broker's own (between the broker and
 * itself, and towards the controller; its password is the broker's secret) and the admin named here, whose SCRAM
 * credentials are written when the log directory is formatted. The admin creates the other users
 * ({@code Admin.alterUserScramCredentials}) and their ACLs. An authorizer is the caller's choice, e.g.
 * {@code authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer} in the broker properties.
 *
 * @param mechanism the SCRAM mechanism of the client listener
 * @param adminUser the admin's user name (letters, digits, {@code . _ -})
 * @param adminPassword the admin's password (the same characters)
 */
public record SaslScram(String mechanism, String adminUser, String adminPassword) {

    /** The name of the broker's own user, a super user. */
    public static final String BROKER_USER = "broker";
    /** The name (and protocol) of the client listener. */
    public static final String CLIENT_LISTENER = "SASL_PLAINTEXT";

    private static final List<String> MECHANISMS = List.of("SCRAM-SHA-256", "SCRAM-SHA-512");
    /** What the format step's SCRAM arguments and the JAAS lines can carry without quoting. */
    private static final Pattern PLAIN_TEXT = Pattern.compile("[A-Za-z0-9._-]+");

    public SaslScram {
        if (!MECHANISMS.contains(mechanism)) {
            throw new IllegalArgumentException("mechanism must be one of " + MECHANISMS + ", was " + mechanism);
        }
        requirePlain("adminUser", adminUser);
        requirePlain("adminPassword", adminPassword);
        if (adminUser.equals(BROKER_USER)) {
            throw new IllegalArgumentException("adminUser must not be '" + BROKER_USER + "', the broker's own user");
        }
    }

    /** SCRAM-SHA-512 with the admin {@code adminUser}. */
    public static SaslScram sha512(String adminUser, String adminPassword) {
        return new SaslScram("SCRAM-SHA-512", adminUser, adminPassword);
    }

    /**
     * What a Kafka client of {@code user} sets to connect: {@code security.protocol}, {@code sasl.mechanism} and
     * {@code sasl.jaas.config}.
     */
    public Map<String, String> clientProperties(String user, String password) {
        requirePlain("user", user);
        requirePlain("password", password);
        return Map.of("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", mechanism,
                "sasl.jaas.config", scramLogin(user, password));
    }

    /** {@link #clientProperties} of the admin. */
    public Map<String, String> adminClientProperties() {
        return clientProperties(adminUser, adminPassword);
    }

    /** The user's principal as ACLs name it: {@code User:<user>}. */
    public static String principal(String user) {
        return "User:" + user;
    }

    /**
     * The listener, inter-broker, controller and JAAS properties of a broker on {@code clientPort} and
     * {@code controllerPort}, its own user signing in with {@code brokerPassword}; they replace the plaintext ones of
     * {@link SingleNodeKRaft#properties}.
     */
    Map<String, String> brokerProperties(int clientPort, int controllerPort, String brokerPassword) {
        String loopback = SingleNodeKRaft.LOOPBACK;
        String controller = SingleNodeKRaft.CONTROLLER_LISTENER;
        String clientPrefix = "listener.name." + CLIENT_LISTENER.toLowerCase() + ".";
        String controllerPrefix = "listener.name." + controller.toLowerCase() + ".";
        Map<String, String> props = new LinkedHashMap<>();
        props.put("listeners", CLIENT_LISTENER + "://" + loopback + ":" + clientPort + "," + controller + "://"
                + loopback + ":" + controllerPort);
        props.put("advertised.listeners", CLIENT_LISTENER + "://" + loopback + ":" + clientPort);
        props.put("inter.broker.listener.name", CLIENT_LISTENER);
        props.put("listener.security.protocol.map", CLIENT_LISTENER + ":SASL_PLAINTEXT," + controller
                + ":SASL_PLAINTEXT");
        props.put("sasl.mechanism.inter.broker.protocol", mechanism);
        props.put("sasl.mechanism.controller.protocol", "PLAIN");
        props.put(clientPrefix + "sasl.enabled.mechanisms", mechanism);
        props.put(clientPrefix + mechanism.toLowerCase() + ".sasl.jaas.config", scramLogin(BROKER_USER,
                brokerPassword));
        props.put(controllerPrefix + "sasl.enabled.mechanisms", "PLAIN");
        props.put(controllerPrefix + "plain.sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule"
                + " required username=\"" + BROKER_USER + "\" password=\"" + brokerPassword + "\" user_" + BROKER_USER
                + "=\"" + brokerPassword + "\";");
        props.put("super.users", principal(BROKER_USER) + ";" + principal(adminUser));
        return props;
    }

    /** The SCRAM credentials the format step writes: the broker's and the admin's. */
    List<String> formatArguments(String brokerPassword) {
        return List.of(formatArgument(BROKER_USER, brokerPassword), formatArgument(adminUser, adminPassword));
    }

    private String formatArgument(String user, String password) {
        return mechanism + "=[name=" + user + ",password=" + password + "]";
    }

    private static String scramLogin(String user, String password) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user
                + "\" password=\"" + password + "\";";
    }

    private static void requirePlain(String what, String value) {
        Objects.requireNonNull(value, what);
        if (!PLAIN_TEXT.matcher(value).matches()) {
            throw new IllegalArgumentException(what + " must be letters, digits, '.', '_' or '-'");
        }
    }
}
