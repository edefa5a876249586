package dev.cairn.coordinator.rest.bodies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.coordinator.rest.bodies.RescaleBodies.SpecTask;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.events.RescaleJob;
import dev.cairn.events.RestoreMode;
import dev.cairn.events.TaskRescale;
import dev.cairn.events.TaskVertex;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The body of {@code POST /jobs/{jobId}/rescaling}, alone and against the job's tasks. */
class RescaleBodiesTest {

    private static final List<SpecTask> TASKS = List.of(
            SpecTask.of(vertex("source", 2, null)), SpecTask.of(vertex("count", 2, 8)), new SpecTask("sink", null));

    @Test
    void shouldRescaleTheNamedTasksInTheBodysOrderWithTheTargetAndModeAsked() {
        RescaleJob rescale = rescale("{\"parallelism\":{\"count\":3,\"sink\":1},\"targetDirectory\":\"s3://sp\","
                + "\"restoreMode\":\"CLAIM\",\"requestId\":\"r-1\"}");

        assertThat(rescale).isEqualTo(RescaleJob.newBuilder().setJobId("job-1").setRequestId("r-1")
                .setTasks(List.of(new TaskRescale("count", 3), new TaskRescale("sink", 1)))
                .setTargetLocation("s3://sp").setRestoreMode(RestoreMode.CLAIM).setRequester("rest")
                .setTimestampMs(42L).build());
    }

    @Test
    void shouldTakeFlinksTargetDirectoryAndDefaultToNoClaimAndAGeneratedId() {
        RescaleJob rescale = rescale("{\"parallelism\":{\"count\":3},\"target-directory\":\"file:///sp\"}");

        assertThat(rescale.getTargetLocation()).isEqualTo("file:///sp");
        assertThat(rescale.getRestoreMode()).isEqualTo(RestoreMode.NO_CLAIM);
        assertThat(rescale.getRequestId()).isEqualTo("generated");
    }

    @Test
    void shouldLeaveTheTargetToTheJobWhenTheBodyNamesNone() {
        assertThat(rescale("{\"parallelism\":{\"count\":3}}").getTargetLocation()).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "{}", "{\"parallelism\":{}}", "{\"parallelism\":null}"})
    void shouldSayThatABodyThatNamesNoTaskMustNameOne(String text) {
        assertThatThrownBy(() -> rescale(text)).isInstanceOf(ApiException.class)
                .hasMessageStartingWith("parallelism names no task; give the new parallelism of at least one, like "
                        + "{\"parallelism\": {\"count\": 3")
                .extracting("status").isEqualTo(400);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "[1]|the body must be a JSON object like {\"parallelism\": {\"count\": 3",
            "\"count=3\"|the body must be a JSON object like",
            "{\"parallelism\":3}|parallelism must be an object, not the number 3",
            "{\"parallelism\":[\"count\"]}|parallelism must be an object, not an array",
            "{\"parallelism\":{\"count\":0}}|parallelism.count must be a whole number from 1 to 32768, not 0",
            "{\"parallelism\":{\"count\":-2}}|parallelism.count must be a whole number from 1 to 32768, not -2",
            "{\"parallelism\":{\"count\":40000}}|parallelism.count must be a whole number from 1 to 32768, not 40000",
            "{\"parallelism\":{\"count\":null}}|parallelism.count must be a whole number from 1 to 32768, not null",
            "{\"parallelism\":{\"count\":\"x\"}}|parallelism.count must be a whole number, not the string \"x\"",
            "{\"parallelism\":{\"count\":1.5}}|parallelism.count must be a whole number, not the number 1.5",
            "{\"parallelism\":{\" \":2}}|parallelism names a task with an empty id",
            "{\"parallelism\":{\"count\":1,\"count\":2}}|Duplicate field 'count'",
            "{\"parallelism\":{\"count\":2},\"restoreMode\":\"LEGACY\"}|restoreMode must be one of CLAIM, "
                    + "NO_CLAIM, not the string \"LEGACY\"",
            "{\"parallelism\":{\"count\":2},\"targetDirectory\":\"s3://a\",\"target-directory\":\"s3://b\"}|"
                    + "targetDirectory and target-directory both name where the savepoint goes; give one of them",
            "{\"parallelism\":{\"count\":2},\"target-directory\":\"http://169.254.169.254/\"}|target-directory has the "
                    + "scheme 'http', which is not allowed",
            "{\"parallelism\":{\"count\":2},\"targetDirectory\":\" \"}|targetDirectory is empty",
            "{\"parallelism\":{\"count\":2},\"requestId\":\" \"}|requestId is empty",
    })
    void shouldSayWhatIsWrongWithAMalformedBody(String text, String expected) {
        assertThatThrownBy(() -> rescale(text)).isInstanceOf(ApiException.class).hasMessageContaining(expected)
                .extracting("status").isEqualTo(400);
    }

    @Test
    void shouldNameEveryProblemOfABodyAtOnce() {
        assertThatThrownBy(() -> rescale("{\"parallelism\":{\"count\":0,\"sink\":\"two\"},\"restoreMode\":1}"))
                .hasMessageContaining("parallelism.sink must be a whole number, not the string \"two\"")
                .hasMessageContaining("restoreMode must be one of CLAIM, NO_CLAIM, not the number 1")
                .hasMessageContaining("parallelism.count must be a whole number from 1 to 32768, not 0");
    }

    @Test
    void shouldAnswerTheErrorsDocsRestMdShows() {
        assertThatThrownBy(() -> RescaleBodies.rescale(
                "{\"parallelism\":{\"worker\":0},\"restoreMode\":\"LEGACY\"}", "tour", 42L, () -> "x",
                InputLimits.DEFAULTS))
                .hasMessage("restoreMode must be one of CLAIM, NO_CLAIM, not the string \"LEGACY\"; parallelism.worker "
                        + "must be a whole number from 1 to 32768, not 0");
        RescaleJob unknownTask = RescaleBodies.rescale("{\"parallelism\":{\"map\":2}}", "tour", 42L, () -> "x",
                InputLimits.DEFAULTS);
        List<SpecTask> tour = List.of(SpecTask.of(vertex("worker", 1, null)));
        assertThatThrownBy(() -> RescaleBodies.requireFits(unknownTask, tour))
                .hasMessage("parallelism.map: job 'tour' has no task 'map' (its tasks: worker)");
    }

    @Test
    void shouldNameTheKnownFieldsWhenABodyHasAnUnknownOne() {
        assertThatThrownBy(() -> rescale("{\"parallelism\":{\"count\":2},\"allowNonRestoredState\":true}"))
                .hasMessage("unknown field 'allowNonRestoredState' (known fields: parallelism, requestId, "
                        + "restoreMode, target-directory, targetDirectory)");
    }

    @Test
    void shouldFitTasksTheJobHasWithinTheirMaxParallelism() {
        RescaleBodies.requireFits(rescale("{\"parallelism\":{\"source\":128,\"count\":8,\"sink\":500}}"), TASKS);
    }

    @Test
    void shouldRefuseATaskTheJobDoesNotHaveNamingItsTasks() {
        assertThatThrownBy(() -> RescaleBodies.requireFits(rescale("{\"parallelism\":{\"map\":2}}"), TASKS))
                .isInstanceOf(ApiException.class).extracting("status").isEqualTo(400);
        assertThatThrownBy(() -> RescaleBodies.requireFits(rescale("{\"parallelism\":{\"map\":2}}"), TASKS))
                .hasMessage("parallelism.map: job 'job-1' has no task 'map' (its tasks: source, count, sink)");
    }

    @Test
    void shouldRefuseAParallelismAboveTheTasksMaxParallelismOrFlinksDefaultForItsParallelism() {
        assertThatThrownBy(() -> RescaleBodies.requireFits(
                rescale("{\"parallelism\":{\"source\":129,\"count\":9}}"), TASKS))
                .hasMessage("parallelism.source must be at most 128, the task's max parallelism (its number of key "
                        + "groups, which a rescale does not change), not 129; parallelism.count must be at most 8, the "
                        + "task's max parallelism (its number of key groups, which a rescale does not change), not 9");
    }

    @Test
    void shouldTakeFlinksDefaultMaxParallelismForAVertexThatGivesNone() {
        assertThat(SpecTask.of(vertex("big", 200, null)).maxParallelism()).isEqualTo(512);
        assertThat(SpecTask.of(vertex("small", 1, null)).maxParallelism()).isEqualTo(128);
        assertThat(SpecTask.of(vertex("given", 1, 4)).maxParallelism()).isEqualTo(4);
    }

    private static RescaleJob rescale(String text) {
        return RescaleBodies.rescale(text, "job-1", 42L, () -> "generated", InputLimits.DEFAULTS);
    }

    private static TaskVertex vertex(String taskId, int parallelism, Integer maxParallelism) {
        return TaskVertex.newBuilder().setTaskId(taskId).setParallelism(parallelism)
                .setMaxParallelism(maxParallelism).build();
    }
}
