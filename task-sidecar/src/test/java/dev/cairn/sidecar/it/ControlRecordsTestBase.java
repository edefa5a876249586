package dev.cairn.sidecar.it;

import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The life cycle of the ITs that write control records by hand (no coordinator): one {@link ControlRecordsBed}
 * per test class, and every sidecar a test started stopped after it.
 */
@ExtendWith(KafkaClusterExtension.class)
abstract class ControlRecordsTestBase {

    /** The test class's topics and sidecars. */
    static ControlRecordsBed bed;

    @BeforeAll
    static void createTopics(KafkaCluster cluster) {
        bed = new ControlRecordsBed(cluster);
    }

    @AfterEach
    void stopTheTestsSidecars() {
        bed.stopSidecars();
    }

    @AfterAll
    static void closeBed() {
        bed.close();
    }
}
