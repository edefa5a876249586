package dev.cairn.cli;

import static dev.cairn.cli.CairnCliRegisterTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.client.rest.FakeCoordinator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI's REST transport ({@code --rest-url}, {@code --token-file}) against a {@link FakeCoordinator}: what it
 * POSTs, how it waits and what it prints; and the commands that read the REST API.
 */
class CairnCliRestTest {

    private static final String TOKEN = "ops-token-0123456789";
    private static final String COMPLETED = "{\"status\":{\"id\":\"COMPLETED\"},\"stage\":\"COMPLETED\","
            + "\"checkpoint_type\":\"SAVEPOINT\",\"checkpoint_id\":9,\"location\":\"s3://b/sp-1\"}";

    private final FakeCoordinator api = new FakeCoordinator();

    @TempDir
    Path dir;

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void shouldPostTheSavepointWithTheTokenAndPrintItsPathWhenItCompletes() throws Exception {
        AtomicInteger polls = new AtomicInteger();
        api.on("POST", "/jobs/orders/savepoints", 202, "{\"request-id\":\"sp-1\"}")
                .on("GET", "/jobs/orders/savepoints/sp-1", () -> new FakeCoordinator.Answer(200,
                        polls.incrementAndGet() < 4 ? "{\"stage\":\"TRIGGERED\",\"checkpoint_id\":9}" : COMPLETED))
                .on("GET", "/jobs/orders/checkpoints/9", 200, "{\"id\":9,\"num_subtasks\":4,"
                        + "\"num_acknowledged_subtasks\":3}");

        CliRun run = rest("savepoint", "--job", "orders", "--target", "s3://b/sp-1", "--request-id", "sp-1",
                "--format", "native", "--progress", "--token-file", tokenFile().toString());

        assertThat(run.exit).as(run.err).isZero();
        assertThat(run.sent).as("nothing goes to Kafka").isEmpty();
        assertThat(run.out).contains("Sent TriggerRequest of job 'orders' to " + api.uri())
                .contains("request id: sp-1").contains("Savepoint completed. Path: s3://b/sp-1")
                .contains("checkpoint id: 9");
        assertThat(run.err).contains("checkpoint 9 acks [").contains("75% 3/4");
        FakeCoordinator.Call post = api.calls().get(0);
        assertThat(post.body()).isEqualTo("{\"targetDirectory\":\"s3://b/sp-1\",\"formatType\":\"NATIVE\","
                + "\"triggerId\":\"sp-1\"}");
        assertThat(post.authorization()).isEqualTo("Bearer " + TOKEN);
    }

    @Test
    void shouldExitOneWithTheAbortReasonWhenTheStopsSavepointFails() {
        api.on("POST", "/jobs/orders/stop", 202, "{\"request-id\":\"s-1\"}")
                .on("GET", "/jobs/orders/savepoints/s-1", 200, "{\"stage\":\"FAILED\",\"checkpoint_id\":4,"
                        + "\"failure_reason\":\"CHECKPOINT_DECLINED\",\"failure_message\":\"Task map 1 declined\"}");

        CliRun run = new CliRun().withEnvironment(Map.of("CAIRN_REST_URL", api.uri().toString(), "CAIRN_REST_TOKEN",
                TOKEN)).run("stop", "--job", "orders", "--drain", "--request-id", "s-1");

        assertThat(run.exit).isEqualTo(1);
        assertThat(run.err).contains("cairn stop: the checkpoint failed: Task map 1 declined (CHECKPOINT_DECLINED)");
        assertThat(api.calls().get(0).body()).isEqualTo("{\"drain\":true,\"triggerId\":\"s-1\"}");
        assertThat(api.calls().get(0).authorization()).isEqualTo("Bearer " + TOKEN);
    }

    @Test
    void shouldPostACheckpointTriggerAndReturnAtOnceWithoutWait() {
        api.on("POST", "/jobs/orders/checkpoints", 202, "{\"request-id\":\"c-1\"}");

        CliRun run = rest("trigger", "--job", "orders", "--checkpoint-type", "incremental", "--request-id", "c-1");

        assertThat(run.exit).as(run.err).isZero();
        assertThat(run.out).contains("Its outcome is GET " + api.uri() + "/jobs/orders/savepoints/c-1 (cairn request "
                + "orders c-1)");
        assertThat(api.calls()).singleElement().satisfies(call -> assertThat(call.body()).isEqualTo(
                "{\"type\":\"CHECKPOINT\",\"checkpointType\":\"INCREMENTAL\",\"triggerId\":\"c-1\"}"));
    }

    @Test
    void shouldExitOneNamingTheTokenWhenTheApiRefusesThePost() {
        api.on("POST", "/jobs/orders/savepoints", 401, "{\"error\":\"this request needs an 'Authorization: Bearer "
                + "<token>' header\"}");

        CliRun run = rest("savepoint", "--job", "orders", "--request-id", "sp-2");

        assertThat(run.exit).isEqualTo(1);
        assertThat(run.err).contains("was answered 401").contains("give a bearer token")
                .contains("to retry, pass --request-id sp-2");
    }

    @Test
    void shouldExitTwoWhenTheRestFlagsAreMalformed() throws Exception {
        assertRefused(CliRun.of("savepoint", "--job", "orders", "--rest-url", "coordinator:8081"),
                "'coordinator:8081' is not a URL of the REST API");
        CliRun missing = CliRun.of("savepoint", "--job", "orders", "--rest-url", api.uri().toString(),
                "--token-file", dir.resolve("missing.token").toString());
        assertRefused(missing, "token.file (flag --token-file): cannot read the token file");
        Path blank = Files.writeString(dir.resolve("blank.token"), "\n  \n");
        assertRefused(CliRun.of("list", "--rest-url", api.uri().toString(), "--token-file", blank.toString()),
                "holds no token");
        assertRefused(CliRun.of("savepoint", "--job", "orders", "--wait-ms", "0"), "--wait-ms must be >= 1");
        assertRefused(CliRun.of("savepoint"), "Name the job to take a savepoint of (--job JOB)");
        assertThat(api.calls()).as("nothing sent").isEmpty();
    }

    @Test
    void shouldSayThatTheReadingCommandsNeedTheRestUrl() {
        for (String[] args : new String[][] {{"list"}, {"checkpoints", "orders"}, {"request", "orders", "r-1"}}) {
            CliRun run = CliRun.of(args);

            assertRefused(run, "cairn " + args[0] + " reads the coordinator's REST API: give --rest-url URL (or set "
                    + "CAIRN_REST_URL)");
        }
    }

    @Test
    void shouldRefuseWhatTheRestApiCannotCarry() {
        CliRun run = rest("status", "--job", "orders", "--status", "SUSPENDED");

        assertRefused(run, "a JobStatusChange is sent over Kafka only: leave out --rest-url");
        assertThat(run.sent).isEmpty();
    }

    @Test
    void shouldListJobsShowCheckpointsAndARequestsOutcome() {
        api.on("GET", "/jobs", 200, "{\"jobs\":[{\"id\":\"orders\",\"status\":\"RUNNING\",\"pending_checkpoints\":1,"
                + "\"latest_completed_id\":11,\"counts\":{\"triggered\":13,\"in_progress\":1,\"completed\":11,"
                + "\"failed\":1}}],\"unreachable\":[]}")
                .on("GET", "/jobs/orders/checkpoints", 200, "{\"counts\":{\"triggered\":13,\"in_progress\":1,"
                        + "\"completed\":11,\"failed\":1},\"latest\":{\"completed\":{\"id\":11,"
                        + "\"status\":\"COMPLETED\","
                        + "\"checkpoint_type\":\"CHECKPOINT\",\"trigger_timestamp\":1,\"end_to_end_duration\":120,"
                        + "\"external_path\":\"file:///c/chk-11\"}},\"pending\":[{\"id\":13,\"status\":\"IN_PROGRESS\","
                        + "\"checkpoint_type\":\"CHECKPOINT\",\"num_subtasks\":4,\"num_acknowledged_subtasks\":1}],"
                        + "\"history\":[{\"id\":12,\"status\":\"FAILED\",\"checkpoint_type\":\"SAVEPOINT\","
                        + "\"failure_reason\":\"CHECKPOINT_EXPIRED\",\"failure_message\":\"expired\"}]}")
                .on("GET", "/jobs/orders/savepoints/sp-1", 200, COMPLETED);

        CliRun list = rest("list");
        CliRun checkpoints = rest("checkpoints", "orders");
        CliRun request = rest("request", "orders", "sp-1");
        CliRun unknown = rest("request", "orders", "nope");
        CliRun json = rest("request", "orders", "sp-1", "--format", "json");

        assertThat(list.exit).as(list.err).isZero();
        assertThat(list.out).contains("JOB").containsPattern("orders\\s+RUNNING\\s+1\\s+11\\s+11\\s+1");
        assertThat(checkpoints.exit).as(checkpoints.err).isZero();
        assertThat(checkpoints.out).contains("Job orders: 13 triggered, 1 in progress, 11 completed, 1 failed")
                .contains("latest completed: checkpoint 11").contains("file:///c/chk-11")
                .containsPattern("13\\s+IN_PROGRESS\\s+CHECKPOINT.*1/4")
                .contains("CHECKPOINT_EXPIRED: expired");
        assertThat(request.exit).isZero();
        assertThat(request.out).contains("request sp-1 of job 'orders': COMPLETED").contains("checkpoint id: 9")
                .contains("path: s3://b/sp-1");
        assertThat(unknown.exit).isEqualTo(1);
        assertThat(unknown.err).contains("the coordinator does not know request nope of job 'orders'");
        assertThat(json.out).contains("\"location\" : \"s3://b/sp-1\"");
    }

    @Test
    void shouldPrintThePomsVersion() throws Exception {
        Matcher version = Pattern.compile("<parent>.*?<version>([^<]+)</version>", Pattern.DOTALL)
                .matcher(Files.readString(Path.of("pom.xml")));
        assertThat(version.find()).isTrue();

        CliRun run = CliRun.of("--version");

        assertThat(run.exit).isZero();
        assertThat(run.out).startsWith("cairn " + version.group(1) + System.lineSeparator()).contains("Java ");
    }

    private CliRun rest(String... args) {
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--rest-url";
        all[args.length + 1] = api.uri().toString();
        return CliRun.of(all);
    }

    private Path tokenFile() throws Exception {
        return Files.writeString(dir.resolve("ops.token"), TOKEN + "\n");
    }
}
