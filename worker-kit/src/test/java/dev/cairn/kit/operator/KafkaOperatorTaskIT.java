package dev.cairn.kit.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.sidecar.hook.CheckpointCompletion;
import dev.cairn.sidecar.hook.RestorePoint;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * A source → count → sink dataflow of kit tasks against the in-JVM KRaft broker, with the test standing in for the
 * coordinator and the sidecars ({@link KitJob}): the committed counts are exactly 1..n per key, also when subtasks
 * restart from the latest completed checkpoint while the others go on.
 */
class KafkaOperatorTaskIT extends KitJobTestBase {

    KafkaOperatorTaskIT() {
        super("kit");
    }

    @Test
    void shouldCommitEveryKeysCountsExactlyOnce() throws Exception {
        job.start();
        produce(2_000);

        awaitExactlyOnce();
    }

    @Test
    void shouldCountExactlyOnceWhenTheSourceRestartsFromTheLatestCompletedCheckpoint() throws Exception {
        job.start();
        produce(1_000);
        assertThat(job.checkpoint()).isTrue();
        produce(1_000);
        awaitCommittedAtLeast(1);

        job.restart("source-0");
        produce(1_000);

        awaitExactlyOnce();
        assertThat(rollbacks("count-0") + rollbacks("count-1")).isPositive();
    }

    @Test
    void shouldCountExactlyOnceWhenAnOperatorRestartsAndItsSinkRollsBack() throws Exception {
        job.start();
        produce(1_000);
        assertThat(job.checkpoint()).isTrue();
        produce(1_000);
        awaitCommittedAtLeast(1);

        job.restart("count-1");
        produce(1_000);

        awaitExactlyOnce();
        assertThat(rollbacks("sink-0") + rollbacks("sink-1")).isPositive();
    }

    @Test
    void shouldCountExactlyOnceWhenEverySubtaskRestartsTogether() throws Exception {
        job.start();
        produce(1_000);
        assertThat(job.checkpoint()).isTrue();
        produce(1_000);

        for (String name : job.names()) {
            job.restart(name);
        }
        produce(1_000);

        awaitExactlyOnce();
    }

    @Test
    void shouldStopAnOperatorThatFindsACheckpointCompletedWithoutIt() throws Exception {
        job.start();
        produce(500);
        assertThat(job.checkpoint()).isTrue();
        KafkaOperatorTask behind = (KafkaOperatorTask) job.start("count-0",
                Optional.of(new RestorePoint(job.latestCompleted(), checkpoints.resolve("chk-" + job.latestCompleted())
                        .resolve("operator-" + jobPrefix() + "-count-0.state").toUri().toString(), 0)));

        behind.notifyComplete(CheckpointCompletion.of(job.latestCompleted() + 1, -1));

        await().atMost(WAIT).until(() -> !behind.isRunning());
        assertThat(behind.failure()).hasValueSatisfying(failure -> assertThat(failure)
                .hasMessageContaining("is behind").hasMessageContaining("checkpoint " + (job.latestCompleted() + 1)));
    }

    @Test
    void shouldDeadLetterARecordWithoutKitHeadersAndCountTheRestExactlyOnce() throws Exception {
        job.start();
        produce(500);
        String keyed = jobPrefix() + ".keyed";
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(keyed, 0, "k1", "no headers")).get();
        }
        produce(500);

        awaitExactlyOnce();
        await().atMost(WAIT).untilAsserted(() -> assertThat(
                DeadLetterReader.reasons(kafka.bootstrapServers(), keyed + ".dead-letters"))
                .containsExactly("no cairn.kit.from header"));
    }

    private String jobPrefix() {
        return job.input().substring(0, job.input().length() - ".events".length());
    }

    private int rollbacks(String name) {
        return ((KafkaOperatorTask) job.subtask(name)).rollbacks();
    }
}
