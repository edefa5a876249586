package dev.cairn.core.contract;

import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.vertex;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobSpec;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestedOptions;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.TriggerRequest;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The one rule set of job specs and trigger requests: every problem at once, each with the path of its field. */
class SpecRulesTest {

    @Test
    void shouldFindNoProblemWhenTheSpecIsValid() {
        assertThat(JobSpecs.problems(spec())).isEmpty();
        assertThat(JobSpecs.validate(spec(), InputLimits.DEFAULTS)).isEmpty();
    }

    @Test
    void shouldNameEveryProblemByPathWhenASpecHasSeveral() {
        JobSpec spec = spec(" ", config().setIntervalMs(0).setRetained(0).setStorageBaseLocation(""),
                vertex("a", 0, false, false), vertex("a", 1, false, false));
        spec.setParticipants(List.of("hook", "hook"));

        assertThat(JobSpecs.problems(spec)).extracting(SpecProblem::path).containsExactly("jobId",
                "config.intervalMs", "config.retained", "config.storageBaseLocation", "tasks[0].parallelism",
                "tasks[1].taskId", "tasks[*].triggered", "tasks[*].acknowledges", "participants[1]");
    }

    /** A job id names the folder of the job's checkpoints: never one that leaves the storage base. */
    @ParameterizedTest
    @ValueSource(strings = {"..", ".", "a/b", "a\\b", "job 1", "jöb"})
    void shouldRejectAJobIdThatIsNoPlainFolderName(String jobId) {
        JobSpec spec = spec(jobId, config(), vertex("a", 1, true, true));

        assertThat(JobSpecs.problems(spec)).extracting(SpecProblem::path).containsExactly("jobId");
    }

    @Test
    void shouldAcceptAJobIdOfLettersDigitsDotsUnderscoresAndDashes() {
        assertThat(JobSpecs.problems(spec("orders_v2.eu-1", config(), vertex("a", 1, true, true)))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"file:///cp/../etc", "s3://bucket/..", "file:///cp/a\nb",
        "C:\\cp\\..\\x", "file:///cp/%2e%2e/etc", "http://169.254.169.254/latest/meta-data",
        "javascript:alert(1)", "checkpoints/relative", "/absolute/path/without/scheme", "file:opaque",
        "s3://bucket/a b"})
    void shouldRejectAStorageBaseOrTargetThatLeavesItsFolderHoldsAControlCharacterOrHasNoAllowedScheme(
            String location) {
        JobSpec spec = spec("job-1", config().setStorageBaseLocation(location), vertex("a", 1, true, true));
        TriggerRequest request = request(CheckpointType.SAVEPOINT);
        request.setTargetLocation(location);

        assertThat(JobSpecs.problems(spec)).extracting(SpecProblem::path).containsExactly("config.storageBaseLocation");
        assertThat(TriggerRequests.boundsProblems(request, InputLimits.DEFAULTS)).extracting(SpecProblem::path)
                .containsExactly("targetLocation");
    }

    @ParameterizedTest
    @ValueSource(strings = {"file:///cp", "s3://bucket/checkpoints", "S3A://bucket/cp", "hdfs://namenode:8020/cp",
        "gs://bucket/cp", "abfss://container@account.dfs.core.windows.net/cp", "oss://bucket/cp"})
    void shouldAcceptAnAbsoluteLocationOfAFileSystemFlinkWritesTo(String location) {
        assertThat(JobSpecs.problems(spec("job-1", config().setStorageBaseLocation(location),
                vertex("a", 1, true, true)))).isEmpty();
    }

    @Test
    void shouldNameTheAllowedSchemesWhenALocationHasAnotherOne() {
        JobSpec spec = spec("job-1", config().setStorageBaseLocation("http://169.254.169.254/x"),
                vertex("a", 1, true, true));

        assertThat(JobSpecs.problems(spec)).extracting(SpecProblem::toString).containsExactly(
                "config.storageBaseLocation has the scheme 'http', which is not allowed; allowed: abfs, abfss, file, "
                        + "gs, hdfs, oss, s3, s3a, s3p, viewfs, wasb, wasbs");
    }

    @Test
    void shouldAcceptTheSchemesTheOperatorAllows() {
        InputLimits limits = InputLimits.DEFAULTS.withLocationSchemes(List.of("mem", "File"));
        JobSpec spec = spec("job-1", config().setStorageBaseLocation("mem://checkpoints"), vertex("a", 1, true, true));
        TriggerRequest request = request(CheckpointType.SAVEPOINT);
        request.setTargetLocation("s3://bucket/sp");

        assertThat(JobSpecs.problems(spec, limits)).isEmpty();
        assertThat(limits.locationSchemes()).containsExactlyInAnyOrder("mem", "file");
        assertThat(TriggerRequests.boundsProblems(request, limits)).extracting(SpecProblem::path)
                .containsExactly("targetLocation");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "1s3", "s3:", "s 3", "ftp/x"})
    void shouldRefuseAnAllowedSchemeThatIsNoUriScheme(String scheme) {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> InputLimits.DEFAULTS.withLocationSchemes(List.of("file", scheme)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not a URI scheme");
    }

    @Test
    void shouldAcceptALocationWhoseNameOnlyStartsWithTwoDots() {
        assertThat(JobSpecs.problems(spec("job-1", config().setStorageBaseLocation("file:///cp/..hidden/x"),
                vertex("a", 1, true, true)))).isEmpty();
    }

    @Test
    void shouldDescribeTheFirstTenProblemsAndCountTheRestWhenThereAreMore() {
        List<SpecProblem> problems = IntStream.range(0, 12)
                .mapToObj(i -> new SpecProblem("tasks[" + i + "].parallelism", "must be in [1, 4] but is 0")).toList();

        String text = SpecProblem.describe(problems, path -> path);

        assertThat(text).startsWith("tasks[0].parallelism must be in [1, 4] but is 0; tasks[1].parallelism")
                .endsWith("tasks[9].parallelism must be in [1, 4] but is 0; and 2 more");
    }

    @Test
    void shouldReadTheIndexAndShapeOfAPathWhenItHasAnIndex() {
        assertThat(SpecProblem.index("tasks[12].parallelism")).isEqualTo(12);
        assertThat(SpecProblem.index("tasks[*].triggered")).isEqualTo(-1);
        assertThat(SpecProblem.index("config.retained")).isEqualTo(-1);
        assertThat(SpecProblem.shape("tasks[12].parallelism")).isEqualTo("tasks[].parallelism");
    }

    @Test
    void shouldNameEveryMisfitOptionWhenASavepointAsksForCheckpointOptions() {
        TriggerRequest request = request(CheckpointType.SAVEPOINT);
        request.setOptions(RequestedOptions.newBuilder().setBackupType(BackupType.FULL).setUnalignedEnabled(true)
                .setAlignedTimeoutMs(5L).build());

        assertThat(TriggerRequests.problems(request)).extracting(SpecProblem::path).containsExactly(
                "options.backupType", "options.unalignedEnabled", "options.alignedTimeoutMs");
    }

    @Test
    void shouldNameEveryMisfitWhenACheckpointAsksForSavepointOptionsAndAStop() {
        TriggerRequest request = request(CheckpointType.CHECKPOINT);
        request.setTargetLocation("s3://x");
        request.setPostCheckpointAction(PostCheckpointAction.TERMINATE);
        request.setOptions(RequestedOptions.newBuilder().setSavepointFormat(SavepointFormat.NATIVE).build());

        assertThat(TriggerRequests.problems(request)).extracting(SpecProblem::path).containsExactly(
                "postCheckpointAction", "targetLocation", "options.savepointFormat");
    }

    @Test
    void shouldNameBlankIdsAndTargetsWhenARequestHasThem() {
        TriggerRequest request = request(CheckpointType.SAVEPOINT);
        request.setJobId("");
        request.setRequestId(" ");
        request.setTargetLocation(" ");

        assertThat(TriggerRequests.problems(request)).extracting(SpecProblem::toString).containsExactly(
                "jobId is empty", "requestId is empty",
                "targetLocation is empty (leave it out for the job's storage base location)");
    }

    @Test
    void shouldDescribeTheRequestInWordsWhenItIsAForcedIncrementalCheckpoint() {
        TriggerRequest request = request(CheckpointType.CHECKPOINT);
        request.setForce(true);
        request.setOptions(RequestedOptions.newBuilder().setBackupType(BackupType.INCREMENTAL)
                .setUnalignedEnabled(true).build());

        assertThat(TriggerRequests.describe(request)).isEqualTo("a forced checkpoint (INCREMENTAL, unaligned)");
    }

    private static TriggerRequest request(CheckpointType type) {
        return TriggerRequest.newBuilder().setJobId("job").setRequestId("r-1").setType(type).setRequester("test")
                .setTimestampMs(0).build();
    }
}
