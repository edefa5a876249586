package dev.cairn.bench.e2e;

import dev.cairn.auth.SigningKey;
import dev.cairn.coordinator.app.CoordinatorApp;
import dev.cairn.coordinator.app.CoordinatorConfig;
import dev.cairn.events.topics.CairnTopics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.kafka.streams.StreamsConfig;

/**
 * A real coordinator ({@link CoordinatorApp}) on the benchmark's broker: {@link CoordinatorConfig#forLocalBroker}
 * settings (3 partitions, tick 50 ms, exactly_once_v2) with the given commit interval and Kafka Streams overrides,
 * its own topic prefix (so that instances started one after another never read each other's records) and its
 * own state directory. With a sidecar master key (the default mode, secured) it verifies every record of the acks
 * topic against its job's key and every request against the requests key, and dead-letters unsigned or mis-signed
 * ones; without one ({@code --unsigned}) it accepts them unsigned, as the coordinator's
 * {@code --allow-unsigned-sidecar-records --allow-unsigned-requests} does. Public for the pipeline benchmark
 * ({@code dev.cairn.bench.pipeline}), which runs its pipeline against one.
 */
public final class CoordinatorInstance implements AutoCloseable {

    /** Partitions of every Cairn topic, as {@link CoordinatorConfig#forLocalBroker} creates them. */
    public static final int PARTITIONS = 3;

    private final CoordinatorApp app;
    private final Path stateDir;

    private CoordinatorInstance(CoordinatorApp app, Path stateDir) {
        this.app = app;
        this.stateDir = stateDir;
    }

    /**
     * Starts a coordinator and waits until it processes records. A {@code commit.interval.ms} entry in
     * {@code overrides} becomes the configuration's commit interval (which also sets {@code poll.ms}), not a raw
     * property.
     *
     * @param sidecarMasterKey the key sidecar records are verified with ({@link SidecarKeys#masterKey()});
     *     {@code null} accepts unsigned records
     */
    public static CoordinatorInstance start(String bootstrap, String topicPrefix, long commitIntervalMs,
            Map<String, String> overrides, SigningKey sidecarMasterKey) {
        Map<String, String> properties = new HashMap<>(overrides);
        String commit = properties.remove(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG);
        long commitMs = commit == null ? commitIntervalMs : Long.parseLong(commit.trim());
        Path stateDir;
        try {
            stateDir = Files.createTempDirectory("cairn-e2e-state");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        CoordinatorConfig base = CoordinatorConfig.forLocalBroker(bootstrap, "cairn-e2e-" + UUID.randomUUID(),
                stateDir);
        CoordinatorConfig config = new CoordinatorConfig(base.bootstrapServers(), base.applicationId(),
                new CairnTopics(topicPrefix), PARTITIONS, base.replicationFactor(), stateDir, base.tickInterval(),
                Duration.ofMillis(commitMs), properties).withSidecarMasterKey(sidecarMasterKey);
        CoordinatorApp app = CoordinatorApp.start(config);
        try {
            if (!app.awaitRunning(Duration.ofSeconds(120))) {
                throw new IllegalStateException("the coordinator did not reach RUNNING within 120 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            app.close();
            throw new IllegalStateException("interrupted while the coordinator started", e);
        } catch (RuntimeException e) {
            app.close();
            throw e;
        }
        return new CoordinatorInstance(app, stateDir);
    }

    /** The running coordinator's configuration. */
    public CoordinatorConfig config() {
        return app.config();
    }

    CoordinatorApp app() {
        return app;
    }

    @Override
    public void close() {
        app.close();
        deleteRecursively(stateDir);
    }

    /** Deletes {@code root} and everything under it, if it exists. */
    public static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
