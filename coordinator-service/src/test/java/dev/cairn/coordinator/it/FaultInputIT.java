package dev.cairn.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.auth.SigningKey;
import dev.cairn.coordinator.streams.DeadLetterQueueHandler;
import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.coordinator.testbed.FaultChecks;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.ThreadMetadata;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Bad input against a real coordinator on a real broker, with signed sidecar records and requests required: a spec that
 * once crashed it for good, a TaskStarted that overtakes its job's spec, forged acks, and a stream of fuzzed
 * records ({@code -Dcairn.fuzz.records}, 1,500 by default; the faults profile sends 10,000). The coordinator
 * must keep serving healthy jobs on the same stream threads, dead-letter every unreadable or unauthenticated
 * record and journal a rejection for every well-formed but invalid one.
 */
@ExtendWith(KafkaClusterExtension.class)
class FaultInputIT {

    private static final SigningKey MASTER = SigningKey.generate();
    private static final int FUZZED = Integer.getInteger("cairn.fuzz.records", 1_500);

    @RegisterExtension
    static final CoordinatorTestBed cairn = CoordinatorTestBed.perTestClass().signedWith(MASTER).create();
    private static FaultChecks checks;

    @BeforeAll
    static void readDeadLetters() {
        checks = FaultChecks.on(cairn);
    }

    @AfterAll
    static void stop() {
        checks.close();
    }

    @Test
    void shouldRejectASpecWithMaximalParallelismAndKeepServingOtherJobs() {
        String poison = "poison-" + UUID.randomUUID();
        cairn.register(JobSpec.newBuilder(Events.job(poison, 200, 10_000, "source"))
                .setTasks(List.of(Events.task("source", Integer.MAX_VALUE)))
                .build());

        CommandRejected rejected = cairn.awaitNextJournal(CommandRejected.class, r -> r.getJobId().equals(poison));
        assertThat(rejected.getReason()).contains("tasks[0].parallelism must be in [1, 32768]");
        checks.assertAHealthyJobCompletesACheckpoint();
    }

    /**
     * A spec whose job id is half a megabyte, produced with a default producer: a rejection keyed by that id would
     * not fit in a record, and under exactly-once the failed send used to stop the stream thread again and again.
     */
    @Test
    void shouldDeadLetterARequestWithAnOversizedJobIdAndKeepServingOnTheSameThreads() {
        Set<String> threadsBefore = streamThreads();
        String huge = "huge-" + "j".repeat(500_000);

        cairn.sendRequest(huge, new RequestEnvelope(Events.job(huge, 200, 10_000, "source")));

        ConsumerRecord<String, byte[]> letter = checks.awaitDeadLetter("ID_TOO_LONG");
        assertThat(FaultChecks.header(letter, DeadLetterQueueHandler.MESSAGE)).contains("500005 characters")
                .hasSizeLessThan(1_000);
        assertThat(FaultChecks.header(letter, DeadLetterQueueHandler.KEY_TRUNCATED_FROM)).isEqualTo("500005");
        checks.assertAHealthyJobCompletesACheckpoint();
        assertThat(streamThreads()).as("no stream thread died and was replaced").isEqualTo(threadsBefore);
    }

    @Test
    void shouldApplyATaskStartedProducedBeforeItsJobSpec() {
        String job = "early-" + UUID.randomUUID();
        cairn.startTask(job, "source", 0, "early-attempt");
        cairn.awaitNextJournal(dev.cairn.events.TaskStarted.class, t -> t.getJobId().equals(job));

        cairn.register(Events.job(job, 200, 10_000, "source"));

        CheckpointTriggered triggered = cairn.awaitNextControl(CheckpointTriggered.class,
                t -> t.getJobId().equals(job));
        assertThat(triggered.getAcksExpected()).as("the early attempt runs the only subtask").isEqualTo(1);
    }

    @Test
    void shouldDeadLetterEveryUnreadableOrUnauthenticatedRecordAndJournalEveryInvalidOne(KafkaCluster kafka) {
        Set<String> threadsBefore = streamThreads();
        int earlierLetters = checks.deadLetters().size();
        RecordFuzzer fuzzer = new RecordFuzzer(42L, cairn.topics().requests(), cairn.topics().acks(), MASTER);
        Map<String, Integer> kinds = new HashMap<>();
        int expectedDead = 0;
        int expectedRejected = 0;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 1_000_000,
                ProducerConfig.LINGER_MS_CONFIG, 5), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < FUZZED; i++) {
                RecordFuzzer.Fuzzed fuzzed = fuzzer.next(i);
                producer.send(fuzzed.record());
                kinds.merge(fuzzed.kind(), 1, Integer::sum);
                if (fuzzed.deadLetter()) {
                    expectedDead++;
                } else {
                    expectedRejected++;
                }
            }
            producer.flush();
        }
        int dead = expectedDead;
        int invalid = expectedRejected;

        Awaitility.await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                .until(() -> checks.deadLetters().size() - earlierLetters >= dead
                        && cairn.journal(CommandRejected.class, r -> r.getJobId().startsWith("fuzz-")).size()
                        >= invalid);

        List<ConsumerRecord<String, byte[]>> all = checks.deadLetters();
        List<ConsumerRecord<String, byte[]>> letters = all.subList(earlierLetters, all.size());
        System.out.println("[fuzz] " + FUZZED + " records: " + letters.size() + " dead-lettered " + reasons(letters)
                + ", " + invalid + " rejected in the journal");
        assertThat(letters).as("every unreadable or unauthenticated record of %s, and nothing else", kinds)
                .hasSize(dead);
        assertThat(letters).allSatisfy(letter -> assertThat(FaultChecks.header(letter, DeadLetterQueueHandler.REASON))
                .isNotBlank());
        assertThat(cairn.journal(CommandRejected.class, r -> r.getJobId().startsWith("fuzz-"))).hasSize(invalid);
        assertThat(reasons(letters)).containsKeys("UNSIGNED", "BAD_SIGNATURE", "TRUNCATED", "TRAILING_BYTES",
                "NOT_SINGLE_OBJECT_ENCODED", "UNKNOWN_SCHEMA", "IllegalArgumentException");
        checks.assertAHealthyJobCompletesACheckpoint();
        assertThat(streamThreads()).as("no stream thread died and was replaced").isEqualTo(threadsBefore);
        assertThat(cairn.coordinator().streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
    }

    private static Set<String> streamThreads() {
        return cairn.coordinator().streams().metadataForLocalThreads().stream().map(ThreadMetadata::threadName)
                .collect(Collectors.toSet());
    }

    private static Map<String, Long> reasons(List<ConsumerRecord<String, byte[]>> letters) {
        return letters.stream().collect(Collectors.groupingBy(l -> FaultChecks.header(l, DeadLetterQueueHandler.REASON),
                Collectors.counting()));
    }
}
