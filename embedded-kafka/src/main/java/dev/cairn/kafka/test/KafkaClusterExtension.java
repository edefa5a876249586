package dev.cairn.kafka.test;

import dev.cairn.kafka.EmbeddedKafkaBroker;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JUnit 5 extension that hands tests a running Kafka cluster as a {@link KafkaCluster} parameter.
 *
 * <p>Register it with {@code @ExtendWith(KafkaClusterExtension.class)} and declare a {@link KafkaCluster}
 * parameter wherever JUnit resolves parameters: a test constructor, a {@code @BeforeAll}/{@code @BeforeEach}
 * method or a test method.
 *
 * <pre>{@code
 * @ExtendWith(KafkaClusterExtension.class)
 * class OrdersIT {
 *     @Test
 *     void shouldRoundTripWhenUsingTheSharedBroker(KafkaCluster kafka) {
 *         kafka.createTopics(3, "orders");
 *         try (var producer = new KafkaProducer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(), ...))) {
 *             ...
 *         }
 *     }
 * }
 * }</pre>
 *
 * <p>One cluster is started lazily, on the first parameter resolution, and shared by every test class that
 * runs in the same JVM (it lives in the root {@link ExtensionContext.Store}); JUnit closes it when the test
 * run ends. Tests must therefore use their own topics and consumer groups and must not stop the cluster; a
 * test that needs to stop or restart a broker starts its own {@link EmbeddedKafkaBroker}.
 *
 * <p>The kind of cluster is chosen by the system property {@code cairn.kafka}, see
 * {@link KafkaClusterSelection}: {@code embedded} (the in-JVM {@link EmbeddedKafkaBroker}),
 * {@code testcontainers} (an {@code apache/kafka} container, image overridable with {@code cairn.kafka.image})
 * or {@code auto} (the default: a container when a Docker engine is reachable, else the in-JVM broker).
 * Testcontainers is an optional dependency; without it, {@code auto} picks the in-JVM broker.
 */
public final class KafkaClusterExtension implements ParameterResolver {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaClusterExtension.class);
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(KafkaClusterExtension.class);
    private static final String KEY = "shared-kafka-cluster";

    /** Created by JUnit. */
    public KafkaClusterExtension() {
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == KafkaCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return sharedCluster(extensionContext);
    }

    /**
     * The cluster shared by the whole test run, started on first use. For other extensions that need the
     * cluster; tests take a {@link KafkaCluster} parameter instead.
     *
     * @param context any extension context of the run
     * @return the running shared cluster
     */
    public static KafkaCluster sharedCluster(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(KEY, key -> startCluster(), KafkaCluster.class);
    }

    /** Starts the cluster chosen by the system property; the returned value is {@link AutoCloseable}. */
    private static KafkaCluster startCluster() {
        KafkaClusterKind kind = KafkaClusterSelection.fromSystemProperty();
        long startNanos = System.nanoTime();
        KafkaCluster cluster;
        if (kind == KafkaClusterKind.TESTCONTAINERS) {
            try {
                cluster = TestcontainersKafkaCluster.start();
            } catch (LinkageError e) {
                throw new IllegalStateException(KafkaClusterSelection.PROPERTY + " selects Testcontainers, but "
                        + "org.testcontainers:kafka is not on the test class path", e);
            }
        } else {
            EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start();
            cluster = new RunningKafkaCluster(KafkaClusterKind.EMBEDDED, broker.bootstrapServers(), broker::close,
                    broker.toString());
        }
        LOG.info("Shared Kafka cluster for tests: {} (started in {} ms)", cluster,
                (System.nanoTime() - startNanos) / 1_000_000);
        return cluster;
    }
}
