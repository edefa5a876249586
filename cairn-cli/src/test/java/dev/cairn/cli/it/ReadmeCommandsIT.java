package dev.cairn.cli.it;

import static dev.cairn.cli.it.DocumentedCommands.assertRanEvery;
import static dev.cairn.cli.it.DocumentedCommands.one;
import static dev.cairn.cli.it.DocumentedCommands.startingWith;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.auth.SigningKey;
import dev.cairn.cli.it.ReadmeCommands.Command;
import dev.cairn.cli.it.ShellRunner.Run;
import dev.cairn.client.Json;
import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.TaskStarted;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command of the documentation's {@code ```bash} blocks ({@code README.md} and every
 * {@code docs/**}{@code /*.md} page) is run: by this class, as an OS process against a real coordinator on the test
 * broker (the {@code bin/cairn}, {@code curl}, {@code keytool} and coordinator-jar lines), by {@link ReadmeTourIT}
 * (the tour's job, sample worker and sidecar), in {@code .ci/run} (the Maven lines), or by the test
 * {@link DocumentedCommands#ELSEWHERE} names; the last test fails naming every other one, page and line. The
 * commands run as written, pointed at the bed through the environment; the few literals a test cannot reproduce are
 * replaced through {@link #substitutions()}.
 */
@ExtendWith(KafkaClusterExtension.class)
class ReadmeCommandsIT {

    private static final Path ROOT = DocumentedCommands.ROOT;
    private static final Pattern REQUEST_ID = Pattern.compile("request id: (\\S+)");

    @RegisterExtension
    static final CoordinatorTestBed cairn = CoordinatorTestBed.perTestClass().withRestApi().create();
    private static final ShellRunner SHELL = new ShellRunner(ReadmeCommandsIT::substitutions,
            ReadmeCommandsIT::environment);
    private static long auditedCheckpoint = -1;
    private static Path requestsKeyFile;

    @TempDir
    Path scratch;

    /**
     * Documented literals that cannot exist in a test, and what stands in for them; everything else runs as written.
     * Applied in this order to the whole command.
     */
    private static Map<String, String> substitutions() {
        Map<String, String> table = new LinkedHashMap<>();
        // the documented example checkpoint id: here the savepoint of job orders that this class completed
        table.put("--checkpoint 42", "--checkpoint " + auditedCheckpoint);
        // a date before this test's journal existed (the job was unknown then): here a moment after it ran
        table.put("--as-of 2024-06-01T12:00:00Z", "--as-of " + Instant.now().plusSeconds(1));
        // the coordinator's host name in docker-compose.yml: here the bed's REST API
        table.put("http://coordinator:8081", cairn.restUri().toString());
        // a coordinator on its default port: here the bed's REST API (a free port)
        table.put("localhost:8081", cairn.restUri().getAuthority());
        // a broker on its default port: here the bed's broker (a flag wins over CAIRN_BOOTSTRAP_SERVERS)
        table.put("--bootstrap-servers localhost:9092", "--bootstrap-servers " + cairn.bootstrapServers());
        // "..." stands for a start's flags: here those of the training run above it, which needs no broker
        table.put(".jar ...", ".jar --rehearse --allow-unsigned-sidecar-records --allow-unsigned-requests");
        // so that an HTTP error status fails the command, and no progress meter clutters its output
        table.put("curl ", "curl -sS --fail-with-body ");
        return table;
    }

    @Test
    void shouldSendEachRequestAndAuditItWhenTheCliCommandsRunAsWritten() throws Exception {
        List<Command> ran = new ArrayList<>();
        Run register = SHELL.run(ran, one("bin/cairn register"), ROOT, Map.of());
        assertThat(register.out()).contains("Sent JobSpec of job 'orders' to " + cairn.topics().requests());
        JobSpec spec = cairn.awaitNextJournal(JobSpec.class, s -> s.getJobId().equals("orders"));
        assertThat(spec.getConfig().getIntervalMs()).isEqualTo(2_000);
        startOrders("a1");

        Run trigger = SHELL.run(ran, one("bin/cairn trigger"), ROOT, Map.of());
        String requestId = requestId(trigger.out());
        CheckpointTriggered savepoint = ackUntil("orders", t -> requestId.equals(t.getRequestId()), 4, "a1");
        assertThat(savepoint.getStorageLocation()).isEqualTo("s3://bucket/sp-1");
        auditedCheckpoint = savepoint.getCheckpointId();
        cairn.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals("orders")
                && c.getCheckpointId() == savepoint.getCheckpointId());

        SHELL.run(ran, one("bin/cairn status"), ROOT, Map.of());
        assertThat(cairn.awaitNextJournal(JobStatusChange.class, c -> c.getJobId().equals("orders")).getStatus())
                .isEqualTo(JobStatus.SUSPENDED);
        cairn.changeStatus("orders", JobStatus.RUNNING);
        startOrders("a2");
        CompletableFuture<Run> savepointing = background(ran, "bin/cairn savepoint");
        CheckpointTriggered second = ackUntil("orders", t -> "s3://bucket/sp-2".equals(t.getStorageLocation()), 4,
                "a2");
        Run waited = savepointing.join();
        assertThat(waited.out()).contains("Savepoint completed. Path: s3://bucket/sp-2")
                .contains("checkpoint id: " + second.getCheckpointId());
        assertThat(SHELL.run(ran, one("bin/cairn list"), ROOT, Map.of()).out()).containsPattern("orders\\s+RUNNING");
        assertThat(SHELL.run(ran, one("bin/cairn checkpoints"), ROOT, Map.of()).out())
                .contains("latest savepoint: savepoint " + second.getCheckpointId());
        assertThat(SHELL.run(ran, one("bin/cairn request"), ROOT, Map.of("REQUEST_ID", requestId(waited.out())))
                .out()).contains(": COMPLETED").contains("path: s3://bucket/sp-2");
        CompletableFuture<Run> stopping = background(ran, "bin/cairn stop");
        CheckpointTriggered last = ackUntil("orders", t -> t.getOptions() != null
                && t.getOptions().getPostCheckpointAction() == PostCheckpointAction.TERMINATE, 4, "a2");
        assertThat(stopping.join().out()).contains("Savepoint completed. Path: s3://bucket/final")
                .contains("checkpoint id: " + last.getCheckpointId());
        Awaitility.await().atMost(CoordinatorTestBed.WAIT).until(() -> cairn.liveJob("orders") != null
                && cairn.liveJob("orders").getStatus() == JobStatus.FINISHED);

        Run timeline = SHELL.run(ran, one("bin/cairn audit timeline"), ROOT, Map.of());
        assertThat(timeline.out()).contains("Checkpoint " + auditedCheckpoint + " of job orders: COMPLETED (SAVEPOINT)")
                .contains("ACK  map/1  attempt a1-map-1");
        JsonNode check = Json.MAPPER.readTree(SHELL.run(ran, one("bin/cairn audit check"), ROOT, Map.of()).out());
        assertThat(check.get("violations")).isEmpty();
        assertThat(check.get("records").asLong()).isPositive();
        assertThat(SHELL.run(ran, one("bin/cairn audit state"), ROOT, Map.of()).out()).contains("FINISHED");
        assertThat(SHELL.run(ran, one("bin/cairn audit verify"), ROOT, Map.of()).out()).contains("no difference");
        assertRanEvery(ran, "bin/cairn register", "bin/cairn trigger", "bin/cairn status", "bin/cairn stop",
                "bin/cairn savepoint", "bin/cairn list", "bin/cairn checkpoints", "bin/cairn request",
                "bin/cairn audit");
    }

    @Test
    void shouldAnswerEveryRestCallWhenDemoJobHasCompletedCheckpointSeven() throws Exception {
        List<Command> ran = new ArrayList<>();
        String job = "demo-job";
        cairn.register(Events.job(job, 100, 60_000, Map.of("source", 2, "sink", 1)));
        startDemoJob("a1");
        for (long id = 0; id < 7; ) {
            CheckpointTriggered t = cairn.awaitNextControl(CheckpointTriggered.class, e -> e.getJobId().equals(job));
            id = t.getCheckpointId();
            ackAll(job, t.getCheckpointId(), "a1", "source", 2, "sink", 1);
        }
        cairn.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job) && c.getCheckpointId() == 7);

        Run savepoint = SHELL.run(ran, one("curl -X POST localhost:8081/jobs/demo-job/checkpoints"), ROOT,
                Map.of());
        String requestId = Json.MAPPER.readTree(savepoint.out()).get("request-id").asText();
        CheckpointTriggered triggered = cairn.awaitNextControl(CheckpointTriggered.class,
                t -> requestId.equals(t.getRequestId()));
        ackAll(job, triggered.getCheckpointId(), "a1", "source", 2, "sink", 1);
        cairn.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job)
                && c.getCheckpointId() == triggered.getCheckpointId());

        Map<String, String> answers = Map.of("/jobs", "{\"jobs\":[{\"id\":\"demo-job\",\"status\":\"RUNNING\"",
                "/jobs/demo-job", "{\"jid\":\"demo-job\",\"state\":\"RUNNING\"",
                "/jobs/demo-job/checkpoints", "{\"counts\":{\"restored\":",
                "/jobs/demo-job/checkpoints/7", "{\"id\":7,\"status\":\"COMPLETED\"",
                "/jobs/demo-job/checkpoints/latest-completed", "{\"id\":7,",
                "/jobs/demo-job/checkpoints/config", "\"interval\":100,",
                "/jobs/demo-job/savepoints/$REQUEST_ID", "{\"status\":{\"id\":\"COMPLETED\"}",
                "/health", "{\"status\":\"UP\"}", "/ready", "{\"status\":\"UP\"}");
        for (Command get : startingWith("curl localhost:8081/")) {
            String path = ReadmeCommands.words(get.text()).get(1).substring("localhost:8081".length());
            assertThat(answers).as("what %s answers", get).containsKey(path);
            assertThat(SHELL.run(ran, get, ROOT, Map.of("REQUEST_ID", requestId)).out()).contains(answers.get(path));
        }
        Run replaced = SHELL.run(ran, one("curl -X PUT localhost:8081/jobs/demo-job"), ROOT, Map.of());
        assertThat(Json.MAPPER.readTree(replaced.out()).get("job-id").asText()).isEqualTo(job);
        cairn.awaitNextJournal(JobSpec.class, s -> s.getJobId().equals(job) && s.getConfig().getIntervalMs() == 2_000);
        Run stop = SHELL.run(ran, one("curl -X POST localhost:8081/jobs/demo-job/stop"), ROOT, Map.of());
        String stopId = Json.MAPPER.readTree(stop.out()).get("request-id").asText();
        CheckpointTriggered last = cairn.awaitNextControl(CheckpointTriggered.class,
                t -> stopId.equals(t.getRequestId()));
        ackAll(job, last.getCheckpointId(), "a1", "source", 2, "sink", 1);
        Awaitility.await().atMost(CoordinatorTestBed.WAIT).until(() -> cairn.liveJob(job).getStatus()
                == JobStatus.FINISHED);
        Run removed = SHELL.run(ran, one("curl -X DELETE localhost:8081/jobs/demo-job"), ROOT, Map.of());
        assertThat(Json.MAPPER.readTree(removed.out()).get("request-id").asText()).isNotBlank();
        assertThat(cairn.rest().awaitBody("/jobs/" + job, r -> r.statusCode() == 404)).contains("was removed at");
        Run heap = SHELL.run(ran, one("curl -s localhost:8081/metrics"), ROOT, Map.of());
        assertThat(heap.out()).contains("jvm_memory_used_bytes{area=\"heap\"", "jvm_gc_live_data_size_bytes");
        assertRanEvery(ran, "curl");
    }

    @Test
    void shouldStartTheCoordinatorJarWithAGeneratedKeyWhenRunInAnEmptyDirectory() throws Exception {
        List<Command> ran = new ArrayList<>();
        Path dir = ShellRunner.repositoryView(scratch, "bin", "cairn-cli", "coordinator-service");
        SHELL.run(ran, one("bin/cairn keys generate"), dir, Map.of());
        SigningKey master = SigningKey.fromFile(dir.resolve("master.key"));
        Run jobKey = SHELL.run(ran, one("bin/cairn keys job"), dir, Map.of());
        assertThat(jobKey.out().strip()).isEqualTo(master.jobKey("orders").toBase64());
        Run rotate = SHELL.run(ran, one("bin/cairn keys rotate"), dir, Map.of());
        SigningKey next = SigningKey.fromFile(dir.resolve("master-2.key"));
        assertThat(rotate.out()).contains("sidecar.master.key.file=master-2.key",
                "sidecar.previous.master.key.file=master.key", "sidecar.previous.master.key.until=",
                "(key id " + next.id() + ")", "(key id " + master.id() + ")");

        Map<String, String> env = Map.of("CAIRN_TOPIC_PREFIX", "readme-" + UUID.randomUUID() + ".",
                "CAIRN_APPLICATION_ID", "readme-" + UUID.randomUUID(), "CAIRN_HTTP_PORT", "0",
                "CAIRN_PARTITIONS", "1", "CAIRN_STATE_DIR", dir.resolve("state").toString());
        Process coordinator = SHELL.start(ran, one("java -jar coordinator-service/"), dir, env,
                dir.resolve("coordinator.log"));
        try {
            Pattern listening = Pattern.compile("REST API listening on 127\\.0\\.0\\.1:(\\d+)");
            String port = Awaitility.await().atMost(CoordinatorTestBed.WAIT).until(() -> {
                String log = Files.readString(dir.resolve("coordinator.log"));
                assertThat(coordinator.isAlive()).as("the coordinator runs; its log:%n%s", log).isTrue();
                Matcher m = listening.matcher(log);
                return m.find() ? m.group(1) : null;
            }, p -> p != null);
            HttpClient http = HttpClient.newHttpClient();
            HttpRequest ready = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ready")).build();
            Awaitility.await().atMost(CoordinatorTestBed.WAIT).ignoreExceptions()
                    .until(() -> http.send(ready, HttpResponse.BodyHandlers.ofString()).statusCode() == 200);
            assertThat(coordinator.info().command()).as("the process to signal is the coordinator's JVM, not a shell")
                    .hasValueSatisfying(command -> assertThat(command).endsWith("java"));
        } finally {
            stopOnSigterm(coordinator);
        }
        assertThat(Files.readString(dir.resolve("coordinator.log"))).contains("Coordinator ", " started against ")
                .contains(" stopped: it left its group");
        assertRanEvery(ran, "bin/cairn keys", "java -jar coordinator-service/");
    }

    @Test
    void shouldWriteAKeystoreAndAClassDataArchiveWhenRunInAnEmptyDirectory() throws Exception {
        List<Command> ran = new ArrayList<>();
        Path dir = ShellRunner.repositoryView(scratch, "bin", "cairn-cli", "coordinator-service");
        SHELL.run(ran, one("keytool"), dir, Map.of("KEYSTORE_PASSWORD", "readme-" + UUID.randomUUID()));
        assertThat(dir.resolve("cairn.p12")).isNotEmptyFile();
        for (Command java : startingWith("java -XX:")) {
            Run rehearsal = SHELL.run(ran, java, dir, Map.of());
            assertThat(rehearsal.out() + rehearsal.err()).contains("Rehearsed a start of coordinator");
        }
        assertThat(dir.resolve("cairn.jsa")).isNotEmptyFile();
        assertRanEvery(ran, "keytool", "java -XX:");
    }

    @Test
    void shouldRunEveryDocumentedCommandWhenItIsNotRunHereInCiOrInANamedTest() {
        List<List<String>> ci = ReadmeCommands.ofScript(ROOT, Path.of(".ci/run")).stream()
                .map(Command::withoutDefines).toList();
        List<Command> documented = DocumentedCommands.all();
        List<Command> nowhere = documented.stream()
                .filter(c -> DocumentedCommands.owner(c).isEmpty())
                .filter(c -> !DocumentedCommands.ELSEWHERE.containsKey(c.text()))
                .filter(c -> !ci.contains(c.withoutDefines()))
                .toList();

        assertThat(DocumentedCommands.pages()).contains(Path.of("README.md"), Path.of("docs/cli.md"));
        assertThat(nowhere).as("documented commands neither run by the ITs of %s, nor in .ci/run, nor listed in "
                + "DocumentedCommands.ELSEWHERE", getClass().getPackageName()).isEmpty();
        assertThat(DocumentedCommands.ELSEWHERE.keySet()).allSatisfy(c -> assertThat(documented)
                .as("documented commands").extracting(Command::text).contains(c));
        assertThat(DocumentedCommands.RUN_HERE.keySet()).allSatisfy(prefix -> assertThat(documented)
                .as("documented commands starting with '%s'", prefix).anyMatch(c -> c.startsWith(prefix)));
    }

    private static void startOrders(String attempt) {
        Stream.of("source-0", "map-0", "map-1", "sink-0").forEach(s -> startTask("orders", s, attempt));
    }

    private static void startDemoJob(String attempt) {
        Stream.of("source-0", "source-1", "sink-0").forEach(s -> startTask("demo-job", s, attempt));
    }

    /** Starts {@code task-index} as attempt {@code <attempt>-<task>-<index>} and waits until the journal took it. */
    private static void startTask(String job, String subtask, String attempt) {
        String task = subtask.substring(0, subtask.indexOf('-'));
        int index = Integer.parseInt(subtask.substring(subtask.indexOf('-') + 1));
        cairn.startTask(job, task, index, attempt + "-" + subtask);
        cairn.awaitJournal(TaskStarted.class, s -> s.getAttemptId().equals(attempt + "-" + subtask)
                && s.getJobId().equals(job));
    }

    /** Acks every trigger of {@code job} as its sidecars would, until one that {@code last} matches; returns it. */
    private static CheckpointTriggered ackUntil(String job, Predicate<CheckpointTriggered> last, int subtasks,
            String attempt) {
        while (true) {
            CheckpointTriggered t = cairn.awaitNextControl(CheckpointTriggered.class, e -> e.getJobId().equals(job));
            assertThat(t.getAcksExpected()).isEqualTo(subtasks);
            ackAll(job, t.getCheckpointId(), attempt, "source", 1, "map", 2, "sink", 1);
            if (last.test(t)) {
                return t;
            }
        }
    }

    /** Runs the documented command starting with {@code prefix} in the background: it waits for what it asked. */
    private static CompletableFuture<Run> background(List<Command> ran, String prefix) {
        Command command = one(prefix);
        return CompletableFuture.supplyAsync(() -> {
            try {
                return SHELL.run(ran, command, ROOT, Map.of());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });
    }

    /** Acks {@code checkpoint} for every subtask of the given tasks (name, parallelism, name, parallelism...). */
    private static void ackAll(String job, long checkpoint, String attempt, Object... tasks) {
        for (int i = 0; i < tasks.length; i += 2) {
            for (int index = 0; index < (int) tasks[i + 1]; index++) {
                String task = (String) tasks[i];
                cairn.ack(job, checkpoint, task, index, attempt + "-" + task + "-" + index);
            }
        }
    }

    /**
     * The bed's broker, topics, token and requests key file (as docs/cli.md says an operator exports
     * {@code CAIRN_REQUESTS_KEY_FILE}): how every command finds the bed and signs what it sends.
     */
    private static Map<String, String> environment() {
        return Map.of("CAIRN_BOOTSTRAP_SERVERS", cairn.bootstrapServers(), "CAIRN_TOPIC_PREFIX",
                cairn.topics().prefix(), "TOKEN", CoordinatorTestBed.REST_TOKEN,
                "CAIRN_REQUESTS_KEY_FILE", requestsKeyFile().toString());
    }

    /** A file holding the bed's requests key, written once. */
    private static synchronized Path requestsKeyFile() {
        if (requestsKeyFile == null) {
            try {
                requestsKeyFile = Files.createTempFile("readme-requests-", ".key");
                requestsKeyFile.toFile().deleteOnExit();
                Files.writeString(requestsKeyFile, cairn.requestsKey().orElseThrow().toBase64() + "\n");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return requestsKeyFile;
    }

    /**
     * Sends SIGTERM to the coordinator's JVM, which must stop within 30 s (its shutdown hook closes it); a
     * coordinator that does not is killed, with anything it started, and the test fails.
     */
    private static void stopOnSigterm(Process coordinator) {
        boolean stopped = ShellRunner.stop(coordinator);
        assertThat(stopped).as("the coordinator stops on SIGTERM within 30 s").isTrue();
        assertThat(coordinator.descendants()).as("nothing the coordinator started outlives it").isEmpty();
    }

    private static String requestId(String out) {
        Matcher matcher = REQUEST_ID.matcher(out);
        assertThat(matcher.find()).as("a request id in: %s", out).isTrue();
        return matcher.group(1);
    }
}
