package dev.cairn.cli.it;

import static dev.cairn.cli.it.DocumentedCommands.assertRanEvery;
import static dev.cairn.cli.it.DocumentedCommands.one;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.auth.SigningKey;
import dev.cairn.cli.it.ReadmeCommands.Command;
import dev.cairn.cli.it.ShellRunner.Run;
import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's five-minute tour, run as written against a real coordinator on the test broker: the job registered
 * with {@code bin/cairn}, the sample worker and a sidecar beside it as OS processes (the sidecar signing with the key
 * {@code bin/cairn keys job} derives from the coordinator's master key), a savepoint and its status over REST, the
 * stop-with-savepoint, and the audit. The tour's coordinator is the test bed's, started with the master key the tour
 * writes to {@code master.key}; the coordinator-jar line itself runs in {@link ReadmeCommandsIT}.
 */
@ExtendWith(KafkaClusterExtension.class)
class ReadmeTourIT {

    private static final SigningKey MASTER = SigningKey.generate();
    private static final Pattern REQUEST_ID = Pattern.compile("request id: (\\S+)");

    @RegisterExtension
    static final CoordinatorTestBed cairn = CoordinatorTestBed.perTestClass().withRestApi().signedWith(MASTER)
            .create();
    private static final int WORKER_PORT = freePort();
    private static final ShellRunner SHELL = new ShellRunner(ReadmeTourIT::substitutions, ReadmeTourIT::environment);

    @TempDir
    Path scratch;

    /** The tour's literals that cannot exist in a test, and what stands in for them, applied in this order. */
    private static Map<String, String> substitutions() {
        Map<String, String> table = new LinkedHashMap<>();
        // the sample worker's documented port: here a free one
        table.put("--port 8090", "--port " + WORKER_PORT);
        table.put("http://127.0.0.1:8090", "http://127.0.0.1:" + WORKER_PORT);
        // a coordinator on its default port: here the bed's REST API (a free port)
        table.put("localhost:8081", cairn.restUri().getAuthority());
        // a broker on its default port: here the bed's broker (a flag wins over the environment)
        table.put("--bootstrap-servers localhost:9092", "--bootstrap-servers " + cairn.bootstrapServers());
        // so that an HTTP error status fails the command, and no progress meter clutters its output
        table.put("curl ", "curl -sS --fail-with-body ");
        return table;
    }

    /** The bed's broker and topics, for the CLI and the sidecar; the sample worker's state in the test's directory. */
    private static Map<String, String> environment() {
        return Map.of("CAIRN_BOOTSTRAP_SERVERS", cairn.bootstrapServers(),
                "CAIRN_TOPIC_PREFIX", cairn.topics().prefix(),
                "CAIRN_SIDECAR_TOPIC_PREFIX", cairn.topics().prefix());
    }

    @Test
    void shouldCheckpointStopAndAuditTheTourJobWhenTheTourRunsAsWritten() throws Exception {
        List<Command> ran = new ArrayList<>();
        Path dir = ShellRunner.repositoryView(scratch, "bin", "cairn-cli", "task-sidecar", "sample-worker");
        Files.writeString(dir.resolve("master.key"), MASTER.toBase64());
        Map<String, String> workerState = Map.of("CAIRN_WORKER_STATE_DIR", dir.resolve("worker").toString());

        SHELL.run(ran, one("bin/cairn keys requests"), dir, Map.of());
        assertThat(SigningKey.fromFile(dir.resolve("requests.key")).toBase64())
                .isEqualTo(MASTER.requestsKey().toBase64());
        SHELL.run(ran, one("bin/cairn register --job tour"), dir, Map.of());
        assertThat(cairn.awaitNextJournal(JobSpec.class, s -> s.getJobId().equals("tour")).getTasks()).hasSize(1);
        Process worker = SHELL.start(ran, one("java -jar sample-worker/"), dir, workerState, dir.resolve("worker.log"));
        Process sidecar = null;
        try {
            SHELL.run(ran, one("bin/cairn keys job --job tour"), dir, Map.of());
            assertThat(SigningKey.fromFile(dir.resolve("tour.key")).toBase64())
                    .isEqualTo(MASTER.jobKey("tour").toBase64());
            sidecar = SHELL.start(ran, one("java -jar task-sidecar/target/cairn-task-sidecar.jar --bootstrap-servers"),
                    dir, Map.of(), dir.resolve("sidecar.log"));
            cairn.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals("tour") && c.getCheckpointId() == 1);

            String requestId = requestId(SHELL.run(ran, one("bin/cairn trigger --job tour"), dir, Map.of()).out());
            RequestOutcome savepoint = cairn.awaitJournal(RequestOutcome.class,
                    o -> requestId.equals(o.getRequestId()) && o.getStatus() == RequestStatus.COMPLETED);
            Run status = SHELL.run(ran, one("curl localhost:8081/jobs/tour/"), dir, Map.of("REQUEST_ID", requestId));
            assertThat(status.out()).contains("{\"status\":{\"id\":\"COMPLETED\"}",
                    "\"checkpoint_id\":" + savepoint.getCheckpointId(), "file:///tmp/cairn/savepoints/tour-1");

            SHELL.run(ran, one("bin/cairn stop --job tour"), dir, Map.of());
            Awaitility.await().atMost(CoordinatorTestBed.WAIT).until(() -> cairn.liveJob("tour").getStatus()
                    == JobStatus.FINISHED);
            Awaitility.await().atMost(CoordinatorTestBed.WAIT)
                    .until(() -> Files.readString(dir.resolve("worker.log")).contains("the job stops"));
        } finally {
            if (sidecar != null) {
                ShellRunner.stop(sidecar);
            }
            ShellRunner.stop(worker);
        }

        Run timeline = SHELL.run(ran, one("bin/cairn audit timeline --job tour"), dir, Map.of());
        assertThat(timeline.out()).contains("Checkpoint 1 of job tour: COMPLETED (CHECKPOINT)", "ACK  worker/0");
        Run verify = SHELL.run(ran, one("bin/cairn audit verify --rest-url http://localhost:8081"), dir, Map.of());
        assertThat(verify.out()).contains("Compared 1 job", "no difference");
        assertRanEvery(ran, tourPrefixes());
    }

    /** The prefixes of {@link DocumentedCommands#RUN_HERE} this class runs. */
    private static String[] tourPrefixes() {
        return DocumentedCommands.RUN_HERE.entrySet().stream()
                .filter(e -> e.getValue().startsWith(ReadmeTourIT.class.getSimpleName() + "."))
                .map(Map.Entry::getKey).toArray(String[]::new);
    }

    private static String requestId(String out) {
        Matcher matcher = REQUEST_ID.matcher(out);
        assertThat(matcher.find()).as("a request id in: %s", out).isTrue();
        return matcher.group(1);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port", e);
        }
    }
}
