package dev.cairn.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.auth.RecordSignatures;
import dev.cairn.coordinator.streams.DeadLetterQueueHandler;
import dev.cairn.coordinator.testbed.FaultChecks;
import dev.cairn.coordinator.testbed.RawClient;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.TaskStartRejected;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.kafka.test.TopicTail;
import dev.cairn.sample.worker.CounterWorker;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Hostile and replayed input against a coordinator process on a Kafka node process, in the default signed mode,
 * while three jobs checkpoint every half second with real sidecars: what an operator's fault and security campaign
 * sends. Each case prints what the coordinator did with it ({@code [faults] hostile: ...}).
 */
class HostileInputFaultIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration QUIET = Duration.ofSeconds(3);
    private static final int DRIBBLERS = 250;
    private static final int BIT_FLIPS = 400;

    private static FaultCluster cluster;
    private static TopicTail<byte[]> deadLetters;
    private static TopicTail<byte[]> acks;
    private static KafkaProducer<String, byte[]> raw;

    @BeforeAll
    static void start() {
        cluster = FaultCluster.start("hostile", 1, 1, 3);
        String bootstrap = cluster.brokers.bootstrapServers();
        deadLetters = TopicTail.fromBeginning(bootstrap, cluster.topics.dlq(), new ByteArrayDeserializer(), v -> v);
        acks = TopicTail.fromBeginning(bootstrap, cluster.topics.acks(), new ByteArrayDeserializer(), v -> v);
        raw = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 2 * 1024 * 1024), new StringSerializer(),
                new ByteArraySerializer());
    }

    @AfterAll
    static void stop() {
        if (raw != null) {
            raw.close();
        }
        if (acks != null) {
            acks.close();
        }
        if (deadLetters != null) {
            deadLetters.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    /**
     * Kafka delivers at least once: the very record of an accepted ack of the job's restore point, signature and
     * all, produced again. It must be answered as a duplicate without its state, so that the worker keeps the
     * state, and a restarted subtask must restore from that checkpoint.
     */
    @Test
    void shouldKeepTheRestorePointWhenAGenuineAckOfItIsReplayedAndRestoreFromIt() throws Exception {
        String job = cluster.jobIds().get(0);
        cluster.fleet.changeStatus(job, JobStatus.SUSPENDED);
        // the journal of a job is one partition: once its suspension is read, so is every completion before it
        Awaitility.await(job + " suspended").atMost(WAIT).until(() -> !cluster.recorder.events(
                cluster.topics.journal(), JobStatusChange.class,
                c -> c.getJobId().equals(job) && c.getStatus() == JobStatus.SUSPENDED).isEmpty());
        CheckpointCompleted latest = latestCompleted(job);
        ConsumerRecord<String, byte[]> genuine = ackRecord(job, latest.getCheckpointId(), "source");
        CheckpointAcknowledged ack = (CheckpointAcknowledged) CairnSerdes.acks()
                .deserialize(genuine.topic(), genuine.value()).getEvent();

        produce(new ProducerRecord<>(cluster.topics.acks(), null, genuine.key(), genuine.value(), genuine.headers()));

        AckDiscarded discarded = Awaitility.await("the replayed ack answered").atMost(WAIT)
                .until(() -> cluster.recorder.events(cluster.topics.journal(), AckDiscarded.class,
                        d -> d.getJobId().equals(job) && d.getCheckpointId() == latest.getCheckpointId()
                                && d.getTaskId().equals("source")).stream().findFirst().orElse(null), d -> d != null);
        assertThat(discarded.getStatus()).isEqualTo(AckDiscardStatus.DUPLICATE);
        assertThat(discarded.getStateHandle()).as("no state handed back for deletion").isNull();
        Path state = Path.of(URI.create(ack.getStateHandle().getLocation()));
        Awaitility.await("the worker keeps the restore point's state").during(QUIET).atMost(QUIET.multipliedBy(3))
                .until(() -> Files.exists(state));
        CounterWorker restored = cluster.fleet.restartSubtask(job, "source");
        assertThat(restored.value()).as("the counter restored from checkpoint " + latest.getCheckpointId())
                .isEqualTo(Long.parseLong(Files.readString(state, StandardCharsets.UTF_8).strip()));
        long resumedAt = System.currentTimeMillis();
        cluster.fleet.changeStatus(job, JobStatus.RUNNING);
        awaitCompletionAfter(job, resumedAt);
        System.out.printf("[faults] hostile: replayed ack of restore point %d of %s -> %s without state; "
                + "restart restored %d from %s%n", latest.getCheckpointId(), job, discarded.getStatus(),
                restored.value(), state);

        replayTheReplacedAttemptsTaskStarted(job, ack.getAttemptId());
    }

    /**
     * The genuine, signed {@code TaskStarted} of the attempt a restart replaced, produced again: it must be rejected
     * with a reason, and the job must keep completing checkpoints with the live attempt.
     */
    private static void replayTheReplacedAttemptsTaskStarted(String job, String oldAttempt) throws Exception {
        ConsumerRecord<String, byte[]> started = Awaitility.await().atMost(WAIT).until(() -> acks.records().stream()
                .filter(r -> job.equals(r.key()) && CairnSerdes.acks().deserialize(r.topic(), r.value())
                        .getEvent() instanceof TaskStarted t && t.getAttemptId().equals(oldAttempt))
                .findFirst().orElse(null), r -> r != null);

        produce(new ProducerRecord<>(cluster.topics.acks(), null, started.key(), started.value(), started.headers()));

        TaskStartRejected rejected = Awaitility.await("the replayed TaskStarted rejected").atMost(WAIT)
                .until(() -> cluster.recorder.events(cluster.topics.journal(), TaskStartRejected.class,
                        r -> r.getJobId().equals(job) && r.getAttemptId().equals(oldAttempt)).stream().findFirst()
                        .orElse(null), r -> r != null);
        long replayedAt = System.currentTimeMillis();
        awaitCompletionAfter(job, replayedAt);
        assertThat(rejected.getCurrentAttemptId()).isNotEqualTo(oldAttempt);
        System.out.printf("[faults] hostile: replayed TaskStarted of replaced attempt %s of %s -> rejected (%s); "
                + "checkpoints go on with %s%n", oldAttempt, job, rejected.getReason(), rejected.getCurrentAttemptId());
    }

    /**
     * 250 clients, from 13 loopback addresses, each declare a request body and send one byte of it a second, while a
     * Kubernetes-like probe asks {@code /health} on the probes port every quarter second: every probe must answer
     * within 2 s, the dribblers must be cut off, and the API must serve again.
     */
    @Test
    void shouldAnswerEveryHealthProbeWhile250ClientsDribbleTheirRequestBodies() throws Exception {
        CoordinatorProcess coordinator = cluster.coordinators.get(0);
        List<RawClient> dribblers = new ArrayList<>();
        ScheduledExecutorService drip = Executors.newSingleThreadScheduledExecutor();
        try {
            long floodedAt = System.nanoTime();
            for (int i = 0; i < DRIBBLERS; i++) {
                RawClient dribbler = RawClient.connect("127.0.0." + (10 + i % 13), coordinator.httpPort());
                dribbler.send(RawClient.postHead(1_000, CoordinatorProcess.REST_TOKEN));
                dribblers.add(dribbler);
            }
            drip.scheduleAtFixedRate(() -> dribblers.forEach(d -> d.send("x")), 1, 1, TimeUnit.SECONDS);
            List<Integer> probes = new CopyOnWriteArrayList<>();
            Awaitility.await("every dribbler cut off").atMost(WAIT).pollInterval(Duration.ofMillis(250))
                    .until(() -> {
                        probes.add(coordinator.probe("/health", Duration.ofSeconds(2)).status());
                        return dribblers.stream().allMatch(RawClient::closedByServer);
                    });
            Duration cutOff = Duration.ofNanos(System.nanoTime() - floodedAt);

            assertThat(probes).as("every probe answered 200 within 2 s").isNotEmpty().containsOnly(200);
            assertThat(coordinator.get("/jobs/" + cluster.jobIds().get(1)).status()).isEqualTo(200);
            System.out.printf("[faults] hostile: %d dribbling REST clients cut off after %.1f s; %d health probes on "
                    + "the probes port, all 200 within 2 s%n", DRIBBLERS, cutOff.toMillis() / 1000.0, probes.size());
        } finally {
            drip.shutdownNow();
            for (RawClient dribbler : dribblers) {
                dribbler.close();
            }
        }
    }

    /**
     * A signed job spec whose job id is half a megabyte: once, the rejection echoed the whole id, the record was too
     * large to send, and under exactly-once every job of the coordinator stopped for good.
     */
    @Test
    void shouldDeadLetterARequestWithAnOversizedJobIdAndKeepEveryJobCheckpointing() throws Exception {
        String huge = "huge-" + "j".repeat(500_000);
        JobSpec spec = JobSpec.newBuilder().setJobId(huge).setTasks(List.of(TaskVertex.newBuilder().setTaskId("t")
                        .setParallelism(1).build()))
                .setConfig(CheckpointConfig.newBuilder().setIntervalMs(500).setTimeoutMs(10_000)
                        .setStorageBaseLocation("file:///tmp/huge").build())
                .setTimestampMs(System.currentTimeMillis()).build();
        long sentAt = System.currentTimeMillis();

        produce(signedRequest(huge, CairnSerdes.requests().serialize(cluster.topics.requests(),
                new RequestEnvelope(spec))));

        ConsumerRecord<String, byte[]> letter = awaitDeadLetter(r -> "ID_TOO_LONG".equals(FaultChecks.header(r,
                DeadLetterQueueHandler.REASON)));
        assertThat(FaultChecks.header(letter, DeadLetterQueueHandler.MESSAGE)).hasSizeLessThan(1_000);
        Awaitility.await("every job completes a checkpoint after the oversized request").atMost(WAIT)
                .pollInterval(Duration.ofMillis(200)).until(() -> cluster.jobsCompletedSince(sentAt));
        System.out.printf("[faults] hostile: a %d-character job id -> dead-lettered as %s (%s), every job "
                + "checkpoints on%n", huge.length(), FaultChecks.header(letter, DeadLetterQueueHandler.REASON),
                FaultChecks.header(letter, DeadLetterQueueHandler.MESSAGE).substring(0, 60));
    }

    /**
     * A genuine signed job spec produced again {@value #BIT_FLIPS} times, each copy with one bit flipped (a storage
     * base of file:///faults once became file:///gaults and was taken): every copy must be dead-lettered and the
     * job's spec stay as it was.
     */
    @Test
    void shouldDeadLetterEveryBitFlippedRequestAndKeepTheJobsSpec() throws Exception {
        String job = cluster.jobIds().get(2);
        ConsumerRecord<String, byte[]> genuine;
        try (TopicTail<byte[]> requests = TopicTail.fromBeginning(cluster.brokers.bootstrapServers(),
                cluster.topics.requests(), new ByteArrayDeserializer(), v -> v)) {
            genuine = Awaitility.await().atMost(WAIT).until(() -> requests.records().stream()
                    .filter(r -> job.equals(r.key()) && CairnSerdes.requests().deserialize(r.topic(), r.value())
                            .getEvent() instanceof JobSpec)
                    .findFirst().orElse(null), r -> r != null);
        }
        long before = deadLetters.records().stream().filter(HostileInputFaultIT::badSignature).count();
        long sentAt = System.currentTimeMillis();
        Random random = new Random(20);

        for (int i = 0; i < BIT_FLIPS; i++) {
            byte[] flipped = genuine.value().clone();
            int bit = random.nextInt(flipped.length * 8);
            flipped[bit / 8] ^= (byte) (1 << (bit % 8));
            produce(new ProducerRecord<>(cluster.topics.requests(), null, genuine.key(), flipped, genuine.headers()));
        }

        Awaitility.await("every flipped request dead-lettered").atMost(WAIT).pollInterval(Duration.ofMillis(200))
                .until(() -> deadLetters.records().stream().filter(HostileInputFaultIT::badSignature).count()
                        - before == BIT_FLIPS);
        Awaitility.await(job + " checkpoints on").atMost(WAIT).until(() -> cluster.jobsCompletedSince(sentAt));
        assertThat(cluster.recorder.events(cluster.topics.journal(), JobSpec.class,
                spec -> spec.getJobId().equals(job)))
                .as("the spec registered once, never replaced").hasSize(1);
        System.out.printf("[faults] hostile: %d bit-flipped copies of a signed job spec -> %d dead-lettered as "
                + "BAD_SIGNATURE, the spec unchanged%n", BIT_FLIPS, BIT_FLIPS);
    }

    private static boolean badSignature(ConsumerRecord<String, byte[]> letter) {
        return "BAD_SIGNATURE".equals(FaultChecks.header(letter, DeadLetterQueueHandler.REASON))
                && cluster.topics.requests().equals(FaultChecks.header(letter, DeadLetterQueueHandler.SOURCE_TOPIC));
    }

    /** A record of the requests topic signed with the run's requests key, as the REST API and the CLI sign. */
    private static ProducerRecord<String, byte[]> signedRequest(String key, byte[] value) {
        RecordHeaders headers = new RecordHeaders();
        RecordSignatures.sign(headers, cluster.masterKey.key().requestsKey(), value);
        return new ProducerRecord<>(cluster.topics.requests(), null, key, value, headers);
    }

    private static ConsumerRecord<String, byte[]> awaitDeadLetter(
            java.util.function.Predicate<ConsumerRecord<String, byte[]>> matching) {
        return Awaitility.await().atMost(WAIT).until(() -> deadLetters.records().stream().filter(matching)
                .findFirst().orElse(null), r -> r != null);
    }

    private static CheckpointCompleted latestCompleted(String job) {
        return cluster.recorder.events(cluster.topics.journal(), CheckpointCompleted.class,
                        c -> c.getJobId().equals(job)).stream()
                .max(Comparator.comparingLong(CheckpointCompleted::getCheckpointId)).orElse(null);
    }

    /** The record of the acks topic that carried the ack of {@code task} for checkpoint {@code id}. */
    private static ConsumerRecord<String, byte[]> ackRecord(String job, long id, String task) {
        return Awaitility.await().atMost(WAIT).until(() -> acks.records().stream()
                .filter(r -> job.equals(r.key()) && CairnSerdes.acks().deserialize(r.topic(), r.value())
                        .getEvent() instanceof CheckpointAcknowledged a && a.getCheckpointId() == id
                        && a.getTaskId().equals(task))
                .findFirst().orElse(null), r -> r != null);
    }

    private static void awaitCompletionAfter(String job, long afterMs) {
        Awaitility.await(job + " completes a checkpoint again").atMost(WAIT).pollInterval(Duration.ofMillis(200))
                .until(() -> !cluster.recorder.events(cluster.topics.journal(), CheckpointCompleted.class,
                        c -> c.getJobId().equals(job) && c.getCompletionTimestampMs() > afterMs).isEmpty());
    }

    private static void produce(ProducerRecord<String, byte[]> record) throws InterruptedException {
        try {
            raw.send(record).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot produce to " + record.topic(), e.getCause());
        }
    }
}
