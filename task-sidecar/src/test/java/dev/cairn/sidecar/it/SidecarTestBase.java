package dev.cairn.sidecar.it;

import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The life cycle the sidecar ITs share: one {@link SidecarTestBed} (a real coordinator on the shared broker)
 * per test class, and every sidecar and job a test started stopped after it.
 */
@ExtendWith(KafkaClusterExtension.class)
abstract class SidecarTestBase {

    @TempDir
    static Path stateDir;

    /** The test class's coordinator, topics and sidecars. */
    static SidecarTestBed bed;
    /** The broker the test bed runs on. */
    static KafkaCluster kafka;

    @BeforeAll
    static void startCoordinator(KafkaCluster cluster) {
        kafka = cluster;
        bed = new SidecarTestBed(cluster, stateDir);
    }

    @AfterEach
    void stopTheTestsSidecarsAndJobs() {
        bed.stopSidecarsAndJobs();
    }

    @AfterAll
    static void stopCoordinator() {
        bed.close();
    }
}
