package dev.cairn.demo;

import dev.cairn.core.state.CoordinatorState;
import dev.cairn.coordinator.streams.StreamsStorage;
import dev.cairn.coordinator.app.CoordinatorApp;
import dev.cairn.coordinator.app.CoordinatorConfig;
import dev.cairn.coordinator.http.QueryServerConfig;
import dev.cairn.auth.SigningKey;
import dev.cairn.auth.SigningSerializer;
import dev.cairn.cli.CairnCli;
import dev.cairn.core.rules.CheckpointStatsSummary;
import dev.cairn.coordinator.state.CheckpointSummary;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.TriggerRequest;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.kafka.EmbeddedKafkaBroker;
import dev.cairn.pipeline.ExactlyOnceCheck;
import dev.cairn.pipeline.InputEvents;
import dev.cairn.pipeline.PipelineTopology;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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
 * worker processes, each with its sidecar embedded; input produced while it runs, one worker SIGKILLed and restarted
 * halfway, a savepoint request, a stop-with-savepoint that drains the tasks and finishes the job, and at the end the
 * exactly-once check of the committed results, a summary and an audit: the journal replayed into a fresh state must
 * equal the live store.
 */
@Command(name = "cairn-demo", mixinStandardHelpOptions = true,
        description = "Runs Cairn end to end on an in-JVM Kafka broker for a bounded time and exits.")
public final class DemoMain implements Callable<Integer> {

    private static final Duration START_WAIT = Duration.ofSeconds(90);
    private static final Duration OUTPUT_WAIT = Duration.ofSeconds(120);
    private static final int WORKERS = PipelineTopology.tasks().size() * PipelineTopology.PARALLELISM;

    @Option(names = "--duration", defaultValue = "PT12S",
            description = "How long the input is produced for, ISO-8601; the job is stopped with a savepoint once "
                    + "its output is complete (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--events", defaultValue = "50000",
            description = "How many input events (default: ${DEFAULT-VALUE}).")
    int events;

    @Option(names = "--keys", defaultValue = "1000", description = "Over how many keys (default: ${DEFAULT-VALUE}).")
    int keys;

    @Option(names = "--partitions", defaultValue = "3", description = "Partitions of every Cairn topic (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--http-port", defaultValue = "" + QueryServerConfig.DEFAULT_PORT,
            description = "Port of the coordinator's REST API, web page and metrics on 127.0.0.1; 0 picks a free one "
                    + "(default: ${DEFAULT-VALUE}).")
    int httpPort;

    @Option(names = "--linger", defaultValue = "PT0S",
            description = "How long the coordinator and its web page stay up after the job finished, ISO-8601 "
                    + "(default: ${DEFAULT-VALUE}; e.g. PT5M to look at the page).")
    Duration linger;

    @Option(names = "--job", defaultValue = "demo-job", description = "The id of the demo job (default: ${DEFAULT-VALUE}).")
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
            throw new CommandLine.ParameterException(spec.commandLine(), "--duration must be positive, was " + duration);
        }
        if (linger.isNegative()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--linger must not be negative, was " + linger);
        }
        if (httpPort < 0 || httpPort > 65_535) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--http-port must be 0..65535, was " + httpPort);
        }
        if (events < 1 || keys < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--events and --keys must be positive, were "
                    + events + " and " + keys);
        }
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
            try (KafkaProducer<String, RequestEnvelope> requests = requestProducer(bootstrap, masterKey.requestsKey());
                 DemoJournal journal = new DemoJournal(bootstrap, coordinator.config().topics().journal());
                 DemoPipeline pipeline = new DemoPipeline(bootstrap, jobId, new InputEvents(events, keys),
                         Files.createTempDirectory("cairn-demo-pipeline"))) {
                String requestsTopic = coordinator.config().topics().requests();
                JobSpec spec = pipeline.prepare();
                requests.send(new ProducerRecord<>(requestsTopic, jobId, new RequestEnvelope(spec))).get();
                out.println("Registered " + EventText.describe(spec));
                pipeline.startWorkers(coordinator.config().topics(), masterKey.jobKey(jobId));
                out.println("Started the pipeline's 6 subtasks as worker processes under a supervisor that "
                        + "starts again whatever dies, each with its sidecar embedded, signing its records with the "
                        + "job's key (logs: " + pipeline.logDir() + ")");
                int exit = runJob(coordinator, requests, journal, pipeline);
                lingerAt(api);
                return exit;
            }
        }
    }

    private int runJob(CoordinatorApp coordinator, KafkaProducer<String, RequestEnvelope> requests,
            DemoJournal journal, DemoPipeline pipeline) throws Exception {
        String requestsTopic = coordinator.config().topics().requests();
        if (!journal.followUntil(event -> event instanceof CheckpointCompleted, START_WAIT)) {
            out.println("The job completed no checkpoint within " + START_WAIT + ".");
            return 1;
        }
        out.printf("Producing %,d events over %,d keys to %s over %s.%n", pipeline.input.events(),
                pipeline.input.keys(), pipeline.topology.eventsTopic(), duration);
        pipeline.produceOver(duration);
        journal.followUntil(event -> false, duration.dividedBy(2));
        TriggerRequest savepoint = savepoint();
        requests.send(new ProducerRecord<>(requestsTopic, jobId, new RequestEnvelope(savepoint))).get();
        out.println("Requested a " + EventText.describe(savepoint));
        journal.followUntil(event -> event instanceof RequestOutcome o
                && o.getRequestId().equals(savepoint.getRequestId()) && o.getStatus() != RequestStatus.TRIGGERED,
                Duration.ofSeconds(30));
        pipeline.kill(PipelineTopology.COUNT, 1);
        out.println("Killed count-1 (SIGKILL) halfway: its supervisor starts it again, it restores the latest "
                + "completed checkpoint, and the sinks downstream of it roll back to that checkpoint.");
        journal.followUntil(event -> false, duration.dividedBy(2));
        long deadline = System.nanoTime() + OUTPUT_WAIT.toNanos();
        while (!pipeline.outputComplete() && System.nanoTime() < deadline) {
            journal.followUntil(event -> false, Duration.ofMillis(500));
        }
        boolean finished = stopWithSavepoint(requests, requestsTopic, journal);
        while (finished && pipeline.exitStatuses().size() < WORKERS && System.nanoTime() < deadline) {
            journal.followUntil(event -> false, Duration.ofMillis(200));
        }
        out.println("Workers: " + pipeline.restarts() + " restarted, exit statuses after the stop "
                + pipeline.exitStatuses());
        out.println("What count-1 restored (from " + pipeline.logDir().resolve("count-1.log") + "):");
        pipeline.restoreLines(PipelineTopology.COUNT, 1).forEach(line -> out.println("  " + line));
        boolean exactlyOnce = exactlyOnce(pipeline);
        boolean summarized = summarize(coordinator, journal);
        boolean audited = audit(coordinator);
        return summarized && audited && finished && exactlyOnce ? 0 : 1;
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
    private boolean audit(CoordinatorApp coordinator) {
        String[] kafka = {"--bootstrap-servers", coordinator.config().bootstrapServers(),
                "--topic-prefix", coordinator.config().topics().prefix()};
        out.println();
        if (finalSavepoint != null) {
            cairn(kafka, "audit", "timeline", "--job", jobId, "--checkpoint", String.valueOf(finalSavepoint));
        }
        int verify = cairn(kafka, "audit", "verify", "--rest-url",
                coordinator.queryServer().orElseThrow().uri().toString());
        int check = cairn(kafka, "audit", "check");
        return verify == 0 && check == 0;
    }

    /** Runs one {@code cairn} command in this JVM, printing it and what it prints. */
    private int cairn(String[] kafka, String... args) {
        out.println("$ cairn " + String.join(" ", args));
        CommandLine cli = CairnCli.commandLine();
        PrintWriter writer = new PrintWriter(out, true, StandardCharsets.UTF_8);
        cli.setOut(writer);
        cli.setErr(writer);
        String[] all = java.util.stream.Stream.concat(java.util.Arrays.stream(args), java.util.Arrays.stream(kafka))
                .toArray(String[]::new);
        int exit = cli.execute(all);
        writer.flush();
        out.println("(exit " + exit + ")");
        return exit;
    }

    /**
     * Stops the job with a savepoint, draining first (Flink's {@code stop --drain}). A stop can fail (a restarted
     * subtask that has not caught up declines it): then the job keeps running, periodic checkpointing resumes, and
     * the demo asks again (at most three times).
     */
    private boolean stopWithSavepoint(KafkaProducer<String, RequestEnvelope> requests, String requestsTopic,
            DemoJournal journal) throws Exception {
        for (int attempt = 1; attempt <= 3; attempt++) {
            TriggerRequest stop = stop(attempt);
            requests.send(new ProducerRecord<>(requestsTopic, jobId, new RequestEnvelope(stop))).get();
            out.println("Requested a " + EventText.describe(stop));
            RequestOutcome[] outcome = new RequestOutcome[1];
            journal.followUntil(event -> {
                if (event instanceof RequestOutcome o && o.getRequestId().equals(stop.getRequestId())
                        && o.getStatus() != RequestStatus.TRIGGERED) {
                    outcome[0] = o;
                    return true;
                }
                return false;
            }, Duration.ofSeconds(30));
            if (outcome[0] == null) {
                out.println("The stop-with-savepoint got no outcome within 30 s.");
                return false;
            }
            if (outcome[0].getStatus() == RequestStatus.COMPLETED) {
                boolean finished = journal.followUntil(event -> event instanceof JobStatusChange c
                        && c.getStatus() == JobStatus.FINISHED, Duration.ofSeconds(30));
                finalSavepoint = outcome[0].getCheckpointId();
                out.println(finished ? "Stopped the job with savepoint " + outcome[0].getCheckpointId()
                        + " after the tasks drained: the job is FINISHED and periodic triggering stopped."
                        : "The stop-with-savepoint completed, but the job never became FINISHED.");
                return finished;
            }
            out.println("The stop-with-savepoint failed (" + outcome[0].getReason() + "): the job keeps running "
                    + "and periodic checkpointing resumes" + (attempt < 3 ? "; asking again." : "."));
        }
        return false;
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

    /** Keeps the coordinator (and its web page) up for {@code --linger}, so that a user can look at the run. */
    private void lingerAt(URI api) throws InterruptedException {
        if (linger.isZero()) {
            return;
        }
        out.printf("The coordinator stays up for %s: open %s/ to look at the run.%n", linger, api);
        Thread.sleep(linger.toMillis());
    }

    private TriggerRequest savepoint() {
        return TriggerRequest.newBuilder().setJobId(jobId).setRequestId("savepoint-" + UUID.randomUUID().toString().substring(0, 8))
                .setType(CheckpointType.SAVEPOINT).setRequester("cairn-demo")
                .setTargetLocation("file:///tmp/cairn-demo/savepoints/sp-1")
                .setTimestampMs(System.currentTimeMillis()).build();
    }

    private TriggerRequest stop(int attempt) {
        return TriggerRequest.newBuilder().setJobId(jobId).setRequestId("stop-" + attempt + "-"
                        + UUID.randomUUID().toString().substring(0, 8))
                .setType(CheckpointType.SAVEPOINT).setPostCheckpointAction(PostCheckpointAction.TERMINATE)
                .setRequester("cairn-demo").setTargetLocation("file:///tmp/cairn-demo/savepoints/final-" + attempt)
                .setTimestampMs(System.currentTimeMillis()).build();
    }

    /** A producer of requests signed with {@code requestsKey}, as the REST API and the CLI sign them. */
    private static KafkaProducer<String, RequestEnvelope> requestProducer(String bootstrap, SigningKey requestsKey) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true),
                new StringSerializer(), new SigningSerializer<>(CairnSerdes.requests().serializer(), requestsKey));
    }
}
