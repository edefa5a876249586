package dev.cairn.demo;

import dev.cairn.auth.SigningKey;
import dev.cairn.auth.SigningSerializer;
import dev.cairn.config.Release;
import dev.cairn.coordinator.app.CoordinatorApp;
import dev.cairn.coordinator.app.CoordinatorConfig;
import dev.cairn.coordinator.http.QueryServerConfig;
import dev.cairn.coordinator.state.CheckpointSummary;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.streams.StreamsStorage;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.views.CheckpointStatsSummary;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.kafka.EmbeddedKafkaBroker;
import dev.cairn.pipeline.ExactlyOnceCheck;
import dev.cairn.pipeline.InputEvents;
import dev.cairn.pipeline.PipelineTopology;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The embedded demo: a real Kafka broker inside this JVM, the coordinator (Kafka Streams, exactly-once), and the
 * sample pipeline's job (source x2, count x2, exactly-once sink x2; {@link DemoPipeline}) whose six subtasks run as
 * worker processes, each with its sidecar embedded. It runs the job twice over: half the input produced while it runs,
 * a savepoint, one worker SIGKILLed and restarted, and a stop-with-savepoint while input still flows; then the workers
 * redeployed as new processes and the job resumed from that savepoint with {@code cairn resume}, more input, the
 * counting task rescaled from 2 to 3 subtasks with {@code cairn rescale} while input flows (a stop with a savepoint,
 * resumed from it with the new parallelism, the workers of the new parallelism started), the rest of the input, and a
 * stop-with-savepoint that drains the tasks and finishes the job. At the end, the exactly-once check of
 * every result committed over both runs, a summary and an audit: the journal replayed into a fresh state must equal
 * the live store. Requests go through the {@code cairn} command line ({@link DemoCli}), signed as users sign them.
 */
@Command(name = "cairn-demo", mixinStandardHelpOptions = true, versionProvider = Release.Version.class,
        description = "Runs Cairn end to end on an in-JVM Kafka broker for a bounded time and exits.")
public final class DemoMain implements Callable<Integer> {

    private static final Duration START_WAIT = Duration.ofSeconds(90);
    private static final Duration OUTPUT_WAIT = Duration.ofSeconds(120);
    /** The counting task's parallelism after the rescale halfway through the second run. */
    private static final int RESCALED_COUNT = 3;
    private static final Duration STORAGE_SAMPLES = Duration.ofSeconds(1);

    @Option(names = "--duration", defaultValue = "PT12S",
            description = "How long the first half of the input is produced for, ISO-8601, before the job is "
                    + "stopped with a savepoint; the second half, after the job resumed from it, takes half as long "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--events", defaultValue = "50000",
            description = "How many input events (default: ${DEFAULT-VALUE}).")
    int events;

    @Option(names = "--keys", defaultValue = "1000", description = "Over how many keys (default: ${DEFAULT-VALUE}).")
    int keys;

    @Option(names = "--partitions", defaultValue = "3",
            description = "Partitions of every Cairn topic (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--http-port", defaultValue = "" + QueryServerConfig.DEFAULT_PORT,
            description = "Port of the coordinator's REST API, web page and metrics on 127.0.0.1; 0 picks a free one "
                    + "(default: ${DEFAULT-VALUE}).")
    int httpPort;

    @Option(names = "--linger", defaultValue = "PT0S",
            description = "How long the coordinator and its web page stay up after the job finished, ISO-8601 "
                    + "(default: ${DEFAULT-VALUE}; e.g. PT5M to look at the page).")
    Duration linger;

    @Option(names = "--storage", defaultValue = "s3",
            description = "Where the checkpoints and savepoints go: s3, a bucket of an S3 API server (S3Proxy) the "
                    + "demo starts in its JVM, or file, a temporary directory (default: ${DEFAULT-VALUE}).")
    String storage;

    @Option(names = "--job", defaultValue = "demo-job",
            description = "The id of the demo job (default: ${DEFAULT-VALUE}).")
    String jobId;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final PrintStream out;
    /** The checkpoint id of the savepoint that stopped the job, once it completed. */
    private Long finalSavepoint;

    DemoMain(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new DemoMain(System.out)).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (duration.isNegative() || duration.isZero()) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--duration must be positive, was " + duration);
        }
        if (linger.isNegative()) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--linger must not be negative, was " + linger);
        }
        if (httpPort < 0 || httpPort > 65_535) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--http-port must be 0..65535, was " + httpPort);
        }
        if (events < 1 || keys < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--events and --keys must be positive, were "
                    + events + " and " + keys);
        }
        DemoStorage.Kind storageKind = DemoStorage.Kind.named(storage).orElseThrow(() ->
                new CommandLine.ParameterException(spec.commandLine(), "--storage must be s3 or file, was " + storage));
        out.println("Cairn demo: starting a single-node Kafka broker (KRaft) inside this JVM...");
        Path stateDir = Files.createTempDirectory("cairn-demo-state");
        SigningKey masterKey = SigningKey.generate();
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start();
             CoordinatorApp coordinator = CoordinatorApp.start(
                     CoordinatorConfig.forLocalBroker(broker.bootstrapServers(), "cairn-demo", stateDir)
                             .withPartitions(partitions).withSidecarMasterKey(masterKey)
                             .withQueryServer(QueryServerConfig.of("127.0.0.1", httpPort, null)))) {
            String bootstrap = broker.bootstrapServers();
            out.printf("Broker at %s; coordinator started (Kafka Streams, exactly-once) on %d partitions per topic.%n",
                    bootstrap, partitions);
            URI api = coordinator.queryServer().orElseThrow().uri();
            out.printf("Web page: %s/   Metrics: %s/metrics   REST: %s/jobs%n", api, api, api);
            if (!coordinator.awaitRunning(Duration.ofSeconds(60))) {
                out.println("The coordinator did not start processing within 60 s.");
                return 1;
            }
            Path dir = Files.createTempDirectory("cairn-demo-pipeline");
            try (DemoStorage store = DemoStorage.start(storageKind, dir);
                 KafkaProducer<String, RequestEnvelope> requests = requestProducer(bootstrap, masterKey.requestsKey());
                 DemoJournal journal = new DemoJournal(bootstrap, coordinator.config().topics().journal());
                 DemoPipeline pipeline = new DemoPipeline(bootstrap, jobId, new InputEvents(events, keys), dir,
                         store)) {
                out.println("Checkpoints and savepoints go to " + store.describe() + ".");
                String requestsTopic = coordinator.config().topics().requests();
                JobSpec spec = pipeline.prepare();
                requests.send(new ProducerRecord<>(requestsTopic, jobId, new RequestEnvelope(spec))).get();
                out.println("Registered " + EventText.describe(spec));
                pipeline.startWorkers(coordinator.config().topics(), masterKey.jobKey(jobId));
                out.println("Started the pipeline's 6 subtasks as worker processes under a supervisor that "
                        + "starts again whatever dies, each with its sidecar embedded, signing its records with the "
                        + "job's key (logs: " + pipeline.logDir() + ")");
                DemoCli cli = new DemoCli(out, bootstrap, coordinator.config().topics().prefix(),
                        masterKey.requestsKey(), dir);
                int exit;
                try (StorageSamples samples = StorageSamples.start(store, pipeline.checkpointsOfJob(),
                        STORAGE_SAMPLES)) {
                    exit = runJob(coordinator, journal, pipeline, cli, store);
                    printStorage(store, pipeline, journal, samples);
                }
                lingerAt(api);
                return exit;
            }
        }
    }

    private int runJob(CoordinatorApp coordinator, DemoJournal journal, DemoPipeline pipeline, DemoCli cli,
            DemoStorage store) throws Exception {
        DemoRequests requests = new DemoRequests(out, jobId, cli, journal, store::savepoint);
        if (!journal.followUntil(event -> event instanceof CheckpointCompleted, START_WAIT)) {
            out.println("The job completed no checkpoint within " + START_WAIT + ".");
            return 1;
        }
        Optional<DemoRequests.Stopped> suspended = firstRun(journal, pipeline, requests);
        if (suspended.isEmpty()) {
            return 1;
        }
        boolean cameBack = comeBack(journal, pipeline, requests, suspended.get());
        Optional<DemoRequests.Stopped> finished = cameBack ? secondRun(journal, pipeline, requests) : Optional.empty();
        finished.ifPresent(stop -> finalSavepoint = stop.checkpointId());
        out.println("What source-0 restored in each of its incarnations (from "
                + pipeline.logDir().resolve("source-0.log") + "):");
        pipeline.restoreLines(PipelineTopology.SOURCE, 0).forEach(line -> out.println("  " + line));
        boolean exactlyOnce = exactlyOnce(pipeline);
        boolean summarized = summarize(coordinator, journal);
        boolean audited = audit(cli, coordinator);
        return summarized && audited && finished.isPresent() && exactlyOnce ? 0 : 1;
    }

    /**
     * The first run: the first half of the input, a savepoint, a SIGKILL of {@code count-1} halfway, and, once the
     * first half is produced and the job recovered from the kill (a checkpoint triggered after it completed, as a user
     * waits for a job to be healthy before stopping it), a stop with a savepoint while input still flows, the tasks
     * stopping where they are (Flink's {@code stop} without {@code --drain}); answers the stop's savepoint once the
     * job is FINISHED and every worker exited.
     */
    private Optional<DemoRequests.Stopped> firstRun(DemoJournal journal, DemoPipeline pipeline,
            DemoRequests requests) {
        int half = pipeline.input.events() / 2;
        out.printf("Producing the first %,d of %,d events over %,d keys to %s over %s.%n", half,
                pipeline.input.events(), pipeline.input.keys(), pipeline.topology.eventsTopic(), duration);
        pipeline.produceOver(duration, half);
        journal.followUntil(event -> false, duration.dividedBy(2));
        requests.savepoint("sp-1");
        long killedAtMs = System.currentTimeMillis();
        pipeline.kill(PipelineTopology.COUNT, 1);
        out.println("Killed count-1 (SIGKILL) halfway: its supervisor starts it again, it restores the latest "
                + "completed checkpoint, and the sinks downstream of it roll back to that checkpoint.");
        long deadline = System.nanoTime() + OUTPUT_WAIT.toNanos();
        boolean recovered = false;
        while ((pipeline.produced() < half || !recovered) && System.nanoTime() < deadline) {
            recovered |= journal.followUntil(event -> event instanceof CheckpointCompleted c
                    && c.getJobId().equals(jobId) && c.getTriggerTimestampMs() >= killedAtMs, Duration.ofMillis(200));
        }
        out.println(recovered ? "The job recovered from the kill: a checkpoint triggered after it completed."
                : "The job did not recover from the kill within " + OUTPUT_WAIT + "; stopping it anyway.");
        Optional<DemoRequests.Stopped> stopped = requests.stop(false, "stop");
        if (stopped.isPresent() && !awaitWorkersExited(journal, pipeline)) {
            return Optional.empty();
        }
        out.println("Workers: " + pipeline.restarts() + " restarted, exit statuses after the stop "
                + pipeline.exitStatuses());
        out.println("What count-1 restored (from " + pipeline.logDir().resolve("count-1.log") + "):");
        pipeline.restoreLines(PipelineTopology.COUNT, 1).forEach(line -> out.println("  " + line));
        return stopped;
    }

    /**
     * Comes back from the stop: lists the job's savepoints, starts the six workers again as new processes (a
     * redeploy), and resumes the job from the stop's savepoint ({@code cairn resume --from-savepoint}); answers
     * whether a checkpoint completed after the resume.
     */
    private boolean comeBack(DemoJournal journal, DemoPipeline pipeline, DemoRequests requests,
            DemoRequests.Stopped stop) {
        out.println();
        requests.listSavepoints();
        List<String> started = pipeline.redeploy();
        out.println("Redeployed the stopped job: started " + started + " again as new worker processes.");
        if (!requests.resume(stop.location())) {
            return false;
        }
        boolean running = journal.followUntil(event -> event instanceof CheckpointCompleted c
                && c.getJobId().equals(jobId) && c.getCheckpointId() > stop.checkpointId(), START_WAIT);
        out.println(running ? "The new workers restored savepoint " + stop.checkpointId() + " and the job "
                + "checkpoints again, its ids going on above it." : "No checkpoint completed within " + START_WAIT
                + " after the resume.");
        return running;
    }

    /**
     * The second run: more input, the counting task rescaled to {@link #RESCALED_COUNT} subtasks, the rest of the
     * input, then, once every key's final count is committed, a stop with a savepoint that drains the tasks (Flink's
     * {@code stop --drain}); answers that savepoint.
     */
    private Optional<DemoRequests.Stopped> secondRun(DemoJournal journal, DemoPipeline pipeline,
            DemoRequests requests) {
        int threeQuarters = pipeline.input.events() * 3 / 4;
        out.printf("Producing %,d more events over %s.%n", threeQuarters - pipeline.produced(),
                duration.dividedBy(4));
        pipeline.produceOver(duration.dividedBy(4), threeQuarters);
        if (!rescale(journal, pipeline, requests, threeQuarters)) {
            return Optional.empty();
        }
        out.printf("Producing the other %,d events over %s.%n", pipeline.input.events() - pipeline.produced(),
                duration.dividedBy(4));
        pipeline.produceOver(duration.dividedBy(4), pipeline.input.events());
        long deadline = System.nanoTime() + OUTPUT_WAIT.toNanos();
        while (!pipeline.outputComplete() && System.nanoTime() < deadline) {
            journal.followUntil(event -> false, Duration.ofMillis(500));
        }
        Optional<DemoRequests.Stopped> stopped = requests.stop(true, "final");
        if (stopped.isPresent() && awaitWorkersExited(journal, pipeline)) {
            out.println("Workers: exit statuses after the final stop " + pipeline.exitStatuses());
            return stopped;
        }
        return Optional.empty();
    }

    /**
     * Rescales the counting task from 2 to {@link #RESCALED_COUNT} subtasks while input flows ({@code cairn rescale}:
     * a stop with a savepoint, then the job resumes from it with the new parallelism), once the events up to
     * {@code produced} are produced; then starts the workers of the new parallelism, as a user redeploys the job.
     * Answers whether a checkpoint completed after the rescale.
     */
    private boolean rescale(DemoJournal journal, DemoPipeline pipeline, DemoRequests requests, int produced) {
        long deadline = System.nanoTime() + OUTPUT_WAIT.toNanos();
        while (pipeline.produced() < produced && System.nanoTime() < deadline) {
            journal.followUntil(event -> false, Duration.ofMillis(200));
        }
        out.println();
        Optional<DemoRequests.Stopped> rescaled = requests.rescale(PipelineTopology.COUNT, RESCALED_COUNT);
        if (rescaled.isEmpty() || !awaitWorkersExited(journal, pipeline)) {
            return false;
        }
        out.println("Rescaled the counting task to " + RESCALED_COUNT + " subtasks: the job stopped with savepoint "
                + rescaled.get().checkpointId() + " and resumed from it; every worker exited "
                + pipeline.exitStatuses() + ".");
        PipelineTopology.Parallelism next = new PipelineTopology.Parallelism(PipelineTopology.PARALLELISM,
                RESCALED_COUNT, PipelineTopology.PARALLELISM);
        out.println("Started the workers of the new parallelism: " + pipeline.startRescaled(next));
        boolean running = journal.followUntil(event -> event instanceof CheckpointCompleted c
                && c.getJobId().equals(jobId) && c.getCheckpointId() > rescaled.get().checkpointId(), START_WAIT);
        out.println(running ? "Each count subtask restored the key groups of its range from the savepoint's states,"
                + " and the job checkpoints again with " + pipeline.workerCount() + " subtasks."
                : "No checkpoint completed within " + START_WAIT + " after the rescale.");
        for (int subtask = 0; subtask < RESCALED_COUNT; subtask++) {
            out.println("What count-" + subtask + " restored:");
            pipeline.restoreLines(PipelineTopology.COUNT, subtask).forEach(line -> out.println("  " + line));
        }
        return running;
    }

    /** Waits until every worker exited after a stop; answers whether they all did. */
    private boolean awaitWorkersExited(DemoJournal journal, DemoPipeline pipeline) {
        long deadline = System.nanoTime() + OUTPUT_WAIT.toNanos();
        while (pipeline.exitStatuses().size() < pipeline.workerCount() && System.nanoTime() < deadline) {
            journal.followUntil(event -> false, Duration.ofMillis(200));
        }
        if (pipeline.exitStatuses().size() < pipeline.workerCount()) {
            out.println("Not every worker exited within " + OUTPUT_WAIT + " of the stop: " + pipeline.exitStatuses());
            return false;
        }
        return true;
    }

    /** Prints the exactly-once check of the committed results; answers whether it passed. */
    private boolean exactlyOnce(DemoPipeline pipeline) {
        ExactlyOnceCheck.Report report = pipeline.report();
        out.println();
        if (report.passed()) {
            out.printf("Exactly once: %,d keys, %,d events, %,d results committed, every count 1..n exactly once%n",
                    report.keysChecked(), pipeline.input.events(), report.resultsRead());
        } else {
            out.println("Exactly once FAILED: " + report);
        }
        return report.passed();
    }

    /**
     * Audits the run as a user would, with {@code cairn audit} reading the journal: the timeline of the final
     * savepoint, the journal replayed against the live REST API, and the journal's invariants.
     *
     * @return whether verify and check found nothing
     */
    private boolean audit(DemoCli cli, CoordinatorApp coordinator) {
        out.println();
        if (finalSavepoint != null) {
            cli.run("audit", "timeline", "--job", jobId, "--checkpoint", String.valueOf(finalSavepoint));
        }
        int verify = cli.run("audit", "verify", "--rest-url", coordinator.queryServer().orElseThrow().uri().toString());
        int check = cli.run("audit", "check");
        return verify == 0 && check == 0;
    }

    private boolean summarize(CoordinatorApp coordinator, DemoJournal journal) {
        CoordinatorState stores = CoordinatorState.over(StreamsStorage.forQueries(name -> coordinator.streams()
                .store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.keyValueStore()))));
        JobState live = stores.job(jobId).orElseThrow();
        List<CheckpointSummary> history = stores.history(live);
        CheckpointStatsSummary stats = CheckpointStatsSummary.of(live, history);
        out.println();
        out.println("Summary for job " + jobId + ":");
        out.printf("  completed: %d %s%n", journal.completed().size(), journal.completed());
        out.printf("  aborted:   %s%n", journal.abortedByReason().isEmpty() ? "none" : journal.abortedByReason());
        journal.outcomes().forEach(o -> out.printf("  request %s: %s%s%n", o.getRequestId(), o.getStatus(),
                o.getCheckpointId() == null ? "" : " (checkpoint " + o.getCheckpointId() + ")"));
        out.printf("  store says: %d triggered, %d completed, %d failed; end-to-end p50 %d ms, p99 %d ms%n",
                live.getCounts().getTriggered(), live.getCounts().getCompleted(), live.getCounts().getFailed(),
                stats.endToEndDurationMs().p50(), stats.endToEndDurationMs().p99());

        return !journal.completed().isEmpty();
    }

    /**
     * Prints what the storage holds once the job finished, measured: the job's checkpoints (their own objects and the
     * shared ones), the most that a sample held while it ran, and the savepoints, which are the user's and stay.
     */
    private void printStorage(DemoStorage store, DemoPipeline pipeline, DemoJournal journal, StorageSamples samples) {
        String checkpoints = pipeline.checkpointsOfJob();
        DemoStorage.Stored now = store.measure(checkpoints);
        DemoStorage.Stored savepoints = store.measure(store.savepoints());
        out.println();
        out.printf("Storage: %s holds %,d objects, %,d bytes, of %d checkpoints %s, after %d completed checkpoints; "
                + "while the job ran, at most %,d objects, %,d bytes and %d checkpoints (%d samples, one a second).%n",
                checkpoints, now.objects(), now.bytes(), now.checkpoints().size(), now.checkpoints(),
                journal.completed().size(), samples.maxObjects(), samples.maxBytes(), samples.maxCheckpoints(),
                samples.samples());
        out.printf("Storage: the savepoints, the user's until disposed of, hold %,d objects, %,d bytes.%n",
                savepoints.objects(), savepoints.bytes());
    }

    /** Keeps the coordinator (and its web page) up for {@code --linger}, so that a user can look at the run. */
    private void lingerAt(URI api) throws InterruptedException {
        if (linger.isZero()) {
            return;
        }
        out.printf("The coordinator stays up for %s: open %s/ to look at the run.%n", linger, api);
        Thread.sleep(linger.toMillis());
    }

    /** A producer of requests signed with {@code requestsKey}, as the REST API and the CLI sign them. */
    private static KafkaProducer<String, RequestEnvelope> requestProducer(String bootstrap, SigningKey requestsKey) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true),
                new StringSerializer(), new SigningSerializer<>(CairnSerdes.requests().serializer(), requestsKey));
    }
}
