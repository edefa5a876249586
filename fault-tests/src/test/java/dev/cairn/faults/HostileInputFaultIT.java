package dev.cairn.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.testbed.RawClient;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.kafka.test.TopicTail;
import dev.cairn.sidecar.sample.CounterWorker;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
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
