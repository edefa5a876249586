package dev.cairn.kafka.test;

import java.util.Locale;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the kind of Kafka cluster for a test run from the system property {@value #PROPERTY}.
 *
 * <ul>
 *   <li>{@code embedded}: always the in-JVM broker;</li>
 *   <li>{@code testcontainers}: always a Testcontainers container (fails if Docker is not reachable);</li>
 *   <li>{@code auto} (the default, also for an absent or blank property): a container when a Docker engine is
 *   reachable, else the in-JVM broker.</li>
 * </ul>
 * Values are case-insensitive; any other value is rejected with an {@link IllegalArgumentException} that names
 * the property and the allowed values.
 */
public final class KafkaClusterSelection {

    /** The system property that selects the cluster kind. */
    public static final String PROPERTY = "cairn.kafka";

    /** Selects the in-JVM broker. */
    public static final String EMBEDDED = "embedded";

    /** Selects a Testcontainers container. */
    public static final String TESTCONTAINERS = "testcontainers";

    /** Selects a container if Docker is reachable, else the in-JVM broker. */
    public static final String AUTO = "auto";

    private static final Logger LOG = LoggerFactory.getLogger(KafkaClusterSelection.class);

    private KafkaClusterSelection() {
    }

    /**
     * The pure selection rule.
     *
     * @param property        the value of {@value #PROPERTY}, may be {@code null} (means {@code auto})
     * @param dockerAvailable asked only for {@code auto}; must not throw
     * @return the kind of cluster to start
     * @throws IllegalArgumentException for a value other than {@code embedded}, {@code testcontainers} or
     *                                  {@code auto}
     */
    public static KafkaClusterKind choose(String property, BooleanSupplier dockerAvailable) {
        String value = property == null ? "" : property.trim().toLowerCase(Locale.ROOT);
        switch (value) {
            case EMBEDDED:
                return KafkaClusterKind.EMBEDDED;
            case TESTCONTAINERS:
                return KafkaClusterKind.TESTCONTAINERS;
            case AUTO:
            case "":
                return dockerAvailable.getAsBoolean() ? KafkaClusterKind.TESTCONTAINERS : KafkaClusterKind.EMBEDDED;
            default:
                throw new IllegalArgumentException("Unknown value '" + property + "' for system property " + PROPERTY
                        + "; allowed values: " + EMBEDDED + ", " + TESTCONTAINERS + ", " + AUTO + " (default " + AUTO
                        + ")");
        }
    }

    /**
     * Applies {@link #choose(String, BooleanSupplier)} to the current system property, probing Docker through
     * Testcontainers only when needed. A missing Testcontainers library or Docker engine means "not available".
     *
     * @return the kind of cluster to start
     * @throws IllegalArgumentException for an unknown property value
     */
    public static KafkaClusterKind fromSystemProperty() {
        return choose(System.getProperty(PROPERTY), KafkaClusterSelection::isDockerAvailable);
    }

    /**
     * Whether Testcontainers can reach a Docker engine. Never throws: a missing Testcontainers library, a
     * missing engine or any error while probing all answer {@code false}.
     *
     * @return {@code true} if a container can be started
     */
    public static boolean isDockerAvailable() {
        try {
            boolean available = TestcontainersKafkaCluster.isDockerAvailable();
            if (!available) {
                LOG.info("No Docker engine reachable through Testcontainers");
            }
            return available;
        } catch (Throwable e) { // NoClassDefFoundError when Testcontainers is absent, or anything from the probe
            if (e instanceof VirtualMachineError) {
                throw (VirtualMachineError) e;
            }
            LOG.info("Testcontainers cannot be used ({}), so Docker counts as unavailable", e.toString());
            return false;
        }
    }
}
