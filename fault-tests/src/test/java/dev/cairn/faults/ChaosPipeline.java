package dev.cairn.faults;

import dev.cairn.auth.SigningSerializer;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.pipeline.InputEvents;
import dev.cairn.pipeline.PipelineProcesses;
import dev.cairn.pipeline.PipelineTopology;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The sample pipeline's job on a {@link FaultCluster}: its topics, its job spec registered with a request signed
 * with the run's requests key, its six subtasks as worker processes under {@link PipelineProcesses} (each with its
 * sidecar embedded, signing with the job's key derived from the run's master key), and its input produced in slices
 * while it runs. Reads what the coordinators decided for it from the cluster's {@link TopicRecorder}, and asks for
 * stop-with-savepoints over a coordinator's REST API ({@code POST /jobs/{id}/stop}, as a user would).
 */
final class ChaosPipeline implements AutoCloseable {

    private static final List<String> WORKER_JVM = List.of("-Xmx256m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-Xshare:auto");
    private static final Duration UNAVAILABLE_WAIT = Duration.ofSeconds(30);
    private static final Pattern REQUEST_ID = Pattern.compile("\"request-id\"\\s*:\\s*\"([^\"]+)\"");

    final String jobId;
    final PipelineTopology topology;
    final InputEvents input;
    final PipelineProcesses workers;
    final PipelineStorage storage;
    private final FaultCluster cluster;
    private final AtomicInteger produced = new AtomicInteger();
    private final AtomicReference<RuntimeException> produceFailure = new AtomicReference<>();
    private final ScheduledExecutorService producer = Executors.newSingleThreadScheduledExecutor();
    private volatile long producingSinceMs;
    private volatile long producedAllAtMs;

    private ChaosPipeline(FaultCluster cluster, String jobId, InputEvents input, PipelineProcesses workers,
            PipelineStorage storage) {
        this.cluster = cluster;
        this.jobId = jobId;
        this.topology = new PipelineTopology(jobId);
        this.input = input;
        this.workers = workers;
        this.storage = storage;
    }

    /** Creates the topics, registers the job and starts its six worker processes. */
    static ChaosPipeline start(FaultCluster cluster, String jobId, InputEvents input) {
        return start(cluster, jobId, input, Map.of());
    }

    /**
     * Creates the topics (one replica per Kafka node), registers the job and starts its six worker processes, whose
     * tasks get {@code taskKafka} as Kafka client settings of their own ({@link PipelineProcesses.Settings}).
     */
    static ChaosPipeline start(FaultCluster cluster, String jobId, InputEvents input, Map<String, String> taskKafka) {
        return start(cluster, jobId, input, taskKafka, PipelineStorage.files(cluster.dir.resolve("pipeline")),
                PipelineTopology.Checkpointing.DEFAULTS);
    }

    /**
     * Creates the topics (one replica per Kafka node), registers the job, checkpointing as {@code checkpointing}
     * says into {@code storage}, and starts its six worker processes, whose tasks get {@code taskKafka} as Kafka
     * client settings of their own.
     */
    static ChaosPipeline start(FaultCluster cluster, String jobId, InputEvents input, Map<String, String> taskKafka,
            PipelineStorage storage, PipelineTopology.Checkpointing checkpointing) {
        PipelineTopology topology = new PipelineTopology(jobId);
        Path dir = cluster.dir.resolve("pipeline");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                cluster.brokers.bootstrapServers()))) {
            topology.createTopics(admin, (short) cluster.brokers.replicationFactor());
        }
        register(cluster, jobId, new RequestEnvelope(topology.jobSpec(storage.checkpoints().uri(), checkpointing)));
        Path keyFile = dir.resolve("job.key");
        try {
            Files.createDirectories(dir);
            Files.writeString(keyFile, cluster.masterKey.jobKey(jobId).toBase64() + "\n", StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the job key to " + keyFile, e);
        }
        PipelineProcesses workers = PipelineProcesses.start(new PipelineProcesses.Settings(
                cluster.brokers.bootstrapServers(), jobId, storage.checkpoints(), keyFile, cluster.topics.prefix(),
                dir.resolve("logs"), System.getProperty("java.class.path"), WORKER_JVM, taskKafka,
                storage.workerEnvironment()));
        return new ChaosPipeline(cluster, jobId, input, workers, storage);
    }

    private static void register(FaultCluster cluster, String jobId, RequestEnvelope request) {
        try (KafkaProducer<String, RequestEnvelope> requests = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.brokers.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(),
                new SigningSerializer<>(CairnSerdes.requests().serializer(), cluster.masterKey.key().requestsKey()))) {
            requests.send(new ProducerRecord<>(cluster.topics.requests(), jobId, request)).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot register " + jobId, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while registering " + jobId, e);
        }
    }

    /** Produces the input in {@code slices} slices, one every {@code every}, on a thread of its own. */
    void produceInSlices(int slices, Duration every) {
        int slice = Math.max(1, input.events() / slices);
        producingSinceMs = System.currentTimeMillis();
        producer.scheduleWithFixedDelay(() -> {
            try {
                int from = produced.get();
                int to = Math.min(input.events(), from + slice);
                input.produce(cluster.brokers.bootstrapServers(), topology.eventsTopic(), from, to);
                produced.set(to);
                if (to == input.events()) {
                    producedAllAtMs = System.currentTimeMillis();
                    producer.shutdown();
                }
            } catch (RuntimeException e) {
                produceFailure.set(e);
                producer.shutdown();
            }
        }, 0, every.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether every event was produced; throws what a failed produce threw. */
    boolean producedAll() {
        if (produceFailure.get() != null) {
            throw produceFailure.get();
        }
        return produced.get() == input.events();
    }

    /** The Kafka cluster's bootstrap servers. */
    String bootstrapServers() {
        return cluster.brokers.bootstrapServers();
    }

    long producingSinceMs() {
        return producingSinceMs;
    }

    long producedAllAtMs() {
        return producedAllAtMs;
    }

    /** The job's checkpoints triggered so far, as seen on {@code cairn.control}, in order. */
    List<CheckpointTriggered> triggered() {
        return cluster.recorder.events(cluster.topics.control(), CheckpointTriggered.class,
                t -> t.getJobId().equals(jobId));
    }

    /** The job's completed checkpoints, as seen on {@code cairn.control}, in order. */
    List<CheckpointCompleted> completed() {
        return cluster.recorder.events(cluster.topics.control(), CheckpointCompleted.class,
                c -> c.getJobId().equals(jobId));
    }

    /** The id of the job's last checkpoint triggered so far, 0 for none. */
    long lastTriggered() {
        return triggered().stream().mapToLong(CheckpointTriggered::getCheckpointId).max().orElse(0);
    }

    /** The id of the job's last completed checkpoint so far, 0 for none. */
    long lastCompleted() {
        return completed().stream().mapToLong(CheckpointCompleted::getCheckpointId).max().orElse(0);
    }

    /**
     * When the first checkpoint triggered at or after {@code since} completed, waiting for it up to {@code atMost};
     * empty if none did by then.
     */
    Optional<Instant> awaitCompletedTriggeredAfter(Instant since, Duration atMost) {
        try {
            return Awaitility.await("a checkpoint triggered after " + since + " completes").atMost(atMost)
                    .pollInterval(Duration.ofMillis(20)).until(() -> completedTriggeredAfter(since),
                            Optional::isPresent);
        } catch (ConditionTimeoutException e) {
            return Optional.empty();
        }
    }

    private Optional<Instant> completedTriggeredAfter(Instant since) {
        return completed().stream().filter(c -> c.getTriggerTimestampMs() >= since.toEpochMilli())
                .map(c -> Instant.ofEpochMilli(c.getCompletionTimestampMs())).min(Instant::compareTo);
    }

    /** The job's aborted checkpoints, from the journal. */
    List<CheckpointAborted> aborted() {
        return cluster.recorder.events(cluster.topics.journal(), CheckpointAborted.class,
                a -> a.getJobId().equals(jobId));
    }

    /** The final outcome (completed or failed) of request {@code requestId}, once the journal has it. */
    Optional<RequestOutcome> outcome(String requestId) {
        return cluster.recorder.events(cluster.topics.journal(), RequestOutcome.class,
                        o -> o.getRequestId().equals(requestId) && o.getStatus() != RequestStatus.TRIGGERED)
                .stream().findFirst();
    }

    /**
     * Asks a live coordinator for a stop-with-savepoint ({@code POST /jobs/{id}/stop}); answers its request id.
     *
     * @throws IllegalStateException when no coordinator accepts it
     */
    String requestStop(boolean drain, String target) {
        return post("/stop", "{\"drain\":" + drain + ",\"targetDirectory\":\"" + target + "\"}", "stop");
    }

    /**
     * Asks a live coordinator to resume the stopped job from its restore point ({@code POST /jobs/{id}/restore}, as
     * {@code cairn resume} does); answers its request id.
     *
     * @throws IllegalStateException when no coordinator accepts it
     */
    String requestResume() {
        return post("/restore", "{}", "restore");
    }

    /**
     * Posts {@code body} to the first live coordinator that accepts it (202); while every one answers 503 (its
     * stores not queryable during a rebalance), asks again for up to {@link #UNAVAILABLE_WAIT}.
     */
    private String post(String route, String body, String what) {
        List<String> answers = new ArrayList<>();
        try {
            return Awaitility.await("a coordinator accepts the " + what + " of " + jobId).atMost(UNAVAILABLE_WAIT)
                    .pollInterval(Duration.ofMillis(500)).until(() -> postOnce(route, body, answers), id -> {
                        if (id.isEmpty() && answers.stream().noneMatch(a -> a.contains(": 503 "))) {
                            throw new IllegalStateException("no coordinator accepted the " + what + " of " + jobId
                                    + ": " + answers);
                        }
                        return id.isPresent();
                    }).orElseThrow();
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("no coordinator accepted the " + what + " of " + jobId + " within "
                    + UNAVAILABLE_WAIT + ": " + answers, e);
        }
    }

    private Optional<String> postOnce(String route, String body, List<String> answers) {
        answers.clear();
        for (CoordinatorProcess coordinator : cluster.coordinators) {
            if (!coordinator.isAlive()) {
                continue;
            }
            CoordinatorProcess.HttpAnswer answer = coordinator.post("/jobs/" + jobId + route, body);
            Matcher id = REQUEST_ID.matcher(answer.body());
            if (answer.status() == 202 && id.find()) {
                return Optional.of(id.group(1));
            }
            answers.add(coordinator.name() + ": " + answer.status() + " " + answer.body());
        }
        return Optional.empty();
    }

    /** Where savepoint {@code name} goes, in the pipeline's storage. */
    String savepointTarget(String name) {
        return storage.savepoint(name);
    }

    @Override
    public void close() {
        producer.shutdownNow();
        workers.close();
    }
}
