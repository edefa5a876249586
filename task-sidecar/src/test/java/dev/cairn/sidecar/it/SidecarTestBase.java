package dev.cairn.sidecar.it;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The life cycle the sidecar ITs share: one {@link CoordinatorTestBed} (a real coordinator on the shared broker,
 * 3 partitions per topic so that jobs land on different partitions) per test class, and every sidecar and job a
 * test started stopped after it.
 */
@ExtendWith(KafkaClusterExtension.class)
abstract class SidecarTestBase {

    @TempDir
    static Path stateDir;

    /** The test class's coordinator and topics. */
    static CoordinatorTestBed bed;
    /** The sidecars of the test under way. */
    static TestSidecars sidecars;
    /** The broker the test bed runs on. */
    static KafkaCluster kafka;

    @BeforeAll
    static void startCoordinator(KafkaCluster cluster) {
        kafka = cluster;
        bed = CoordinatorTestBed.on(cluster, stateDir).partitions(3).start();
        sidecars = new TestSidecars(bed);
    }

    @AfterEach
    void stopTheTestsSidecarsAndJobs() {
        sidecars.stopAll();
        bed.suspendRegisteredJobs();
    }

    @AfterAll
    static void stopCoordinator() {
        sidecars.close();
        bed.close();
    }
}
