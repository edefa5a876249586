package dev.cairn.coordinator.rest.routes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.coordinator.rest.bodies.RescaleBodies.SpecTask;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The tasks a rescale is checked against, read from the job's view another instance answered. */
class JobTasksTest {

    @Test
    void shouldReadEachTasksMaxParallelismFromTheOwnersView() {
        assertThat(JobTasks.ofView(bytes("{\"jid\":\"j\",\"tasks\":[{\"task_id\":\"count\",\"parallelism\":2,"
                + "\"max_parallelism\":4},{\"task_id\":\"sink\",\"parallelism\":1,\"max_parallelism\":128}]}"),
                "10.0.0.2:8081")).containsExactly(new SpecTask("count", 4), new SpecTask("sink", 128));
    }

    @Test
    void shouldLeaveTheMaxParallelismToTheCoordinatorWhenAnOwnerOfAnEarlierReleaseDoesNotShowIt() {
        assertThat(JobTasks.ofView(bytes("{\"tasks\":[{\"task_id\":\"count\",\"parallelism\":2},"
                + "{\"task_id\":\"sink\",\"parallelism\":1,\"max_parallelism\":\"128\"}]}"), "10.0.0.2:8081"))
                .containsExactly(new SpecTask("count", null), new SpecTask("sink", null));
    }

    @Test
    void shouldAnswer503NamingTheOwnerWhenItsViewIsNotJsonOrHasNoTasks() {
        assertThatThrownBy(() -> JobTasks.ofView(bytes("<html>"), "10.0.0.2:8081"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(503))
                .hasMessageContaining("coordinator instance 10.0.0.2:8081, which owns the job, answered with a view "
                        + "that is not JSON");
        assertThatThrownBy(() -> JobTasks.ofView(bytes("{\"jid\":\"j\"}"), "10.0.0.2:8081"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(503))
                .hasMessageContaining("answered with a view that names no tasks");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
