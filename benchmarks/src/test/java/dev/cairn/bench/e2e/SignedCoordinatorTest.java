package dev.cairn.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.auth.RecordSignatures;
import dev.cairn.bench.e2e.Workload.Job;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.kafka.EmbeddedKafkaBroker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's coordinator in its default, secured mode on a real broker: it completes checkpoints of the
 * benchmark's signed records (every record on the acks topic carrying its job's signature, every request the
 * requests key's), and it refuses the unsigned ones, so a signed run really is verified.
 */
class SignedCoordinatorTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static EmbeddedKafkaBroker broker;

    @BeforeAll
    static void startBroker() {
        EndToEndBenchmark.quietLogs();
        broker = EmbeddedKafkaBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Test
    void shouldCompleteACheckpointOfRecordsSignedWithTheirJobsKey() {
        SidecarKeys keys = SidecarKeys.signed();
        CairnTopics topics = new CairnTopics("signed.");
        String bootstrap = broker.bootstrapServers();
        try (CoordinatorInstance coordinator = CoordinatorInstance.start(bootstrap, "signed.", 20, Map.of(),
                keys.masterKey());
                CairnDriver driver = new CairnDriver(bootstrap, topics, new Workload(100, keys), TIMEOUT, 5);
                Follower<byte[]> acksTopic = new Follower<>(bootstrap, topics.acks(), new ByteArrayDeserializer())) {
            Job job = driver.register(1, 3).get(0);
            Map<String, Long> checkpoint = driver.triggerAll(List.of(job));
            assertThat(driver.sendAcks(List.of(job), checkpoint)).isEqualTo(3);
            driver.awaitCompletions(checkpoint);

            List<ConsumerRecord<String, byte[]>> produced = new ArrayList<>();
            acksTopic.pollUntil(produced::add, () -> produced.size() >= 6, TIMEOUT, () -> { }, "acks");
            assertThat(produced).hasSize(6).allSatisfy(record -> {
                assertThat(record.key()).isEqualTo(job.id());
                assertThat(keys.masterKey().jobKey(job.id()).verifies(record.value(),
                        RecordSignatures.signature(record.headers()))).isTrue();
            });
        }
    }

    @Test
    void shouldRefuseUnsignedRequestsBeforeAnySidecarRecord() {
        SidecarKeys keys = SidecarKeys.signed();
        String bootstrap = broker.bootstrapServers();
        try (CoordinatorInstance coordinator = CoordinatorInstance.start(bootstrap, "refused.", 20, Map.of(),
                keys.masterKey());
                CairnDriver unsigned = new CairnDriver(bootstrap, new CairnTopics("refused."),
                        new Workload(100, SidecarKeys.unsigned()), TIMEOUT, 5)) {
            assertThatThrownBy(() -> unsigned.register(1, 2)).isInstanceOf(RowFailedException.class)
                    .hasMessage("request dead-lettered, UNSIGNED");
        }
    }
}
