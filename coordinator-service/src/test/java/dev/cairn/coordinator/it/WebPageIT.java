package dev.cairn.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.coordinator.testbed.OptionalTool;
import dev.cairn.coordinator.testbed.RestClient;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.JobSpec;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.TaskVertex;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.logging.Level;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web page in a real headless browser (Debian's chromium, driven by Selenium through chromedriver) against a
 * real coordinator on the test broker; the test plays the sidecars. Saves {@code target/web-page.png}. Skipped
 * where chromium is not installed, unless {@code -Dcairn.browser=required} ({@link OptionalTool#BROWSER}).
 */
@ExtendWith(KafkaClusterExtension.class)
class WebPageIT {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Duration BROWSER_WAIT = Duration.ofSeconds(30);
    private static final String JOB = "orders-enrichment";
    /** The sidecars this test plays, in spec order: task and subtask index. */
    private static final List<String[]> SUBTASKS = List.of(new String[] {"source", "0"}, new String[] {"source", "1"},
            new String[] {"enrich", "0"}, new String[] {"enrich", "1"}, new String[] {"enrich", "2"},
            new String[] {"sink", "0"});

    @TempDir
    Path browserProfile;
    private ChromeDriver browser;

    @BeforeEach
    void startBrowser() {
        OptionalTool.BROWSER.assumeInstalled();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + browserProfile, "--window-size=1280,900", "--hide-scrollbars");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER.toString())).usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
    }

    @AfterEach
    void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    /**
     * Also the summary of every job (jobs by status, checkpoints completed and failed, each job's latest completed),
     * the job's checkpoint configuration as registered, and the host of the subtask a pending checkpoint waits for.
     */
    @Test
    void shouldShowCompletedCheckpointsPlotsAndThePendingSubtaskOfAJob(KafkaCluster kafka, @TempDir Path stateDir)
            throws Exception {
        try (CoordinatorTestBed cairn = CoordinatorTestBed.on(kafka, stateDir).withRestApi().start()) {
            Sidecars sidecars = new Sidecars(cairn);
            cairn.register(spec("nightly-report", 3_600_000, new String[] {"report", "1"}));
            cairn.register(spec(JOB, 300, new String[] {"source", "2"}, new String[] {"enrich", "3"},
                    new String[] {"sink", "1"}));
            SUBTASKS.forEach(s -> cairn.sendAck(JOB, Events.taskStarted(JOB, s[0], Integer.parseInt(s[1]), attempt(s))
                    .setHost(host(s)).build()));
            List<Long> completed = new ArrayList<>();
            long failed = -1;
            long pending = -1;
            long last = 0;
            for (int round = 1; round <= 9; round++) {
                long previous = last;
                CheckpointTriggered trigger = cairn.awaitNextControl(CheckpointTriggered.class,
                        t -> t.getJobId().equals(JOB) && t.getCheckpointId() > previous);
                last = trigger.getCheckpointId();
                if (round == 5) {
                    sidecars.declineAfter(trigger, SUBTASKS.get(4), 90);
                    failed = last;
                } else if (round == 9) {
                    sidecars.ackAllBut(trigger, round, SUBTASKS.get(5));
                    pending = last;
                } else {
                    sidecars.ackAllBut(trigger, round, null);
                    completed.add(last);
                }
            }

            browser.get(cairn.restUri() + "/#/jobs/" + JOB + "/checkpoints/" + pending);
            WebDriverWait wait = new WebDriverWait(browser, BROWSER_WAIT);
            wait.until(b -> rows("#checkpoints-table tbody tr[data-status='COMPLETED']").size() == completed.size()
                    && !rows("#timeline g.subtask-row.missing").isEmpty());
            String firstRefresh = browser.findElement(By.tagName("body")).getDomAttribute("data-refreshed");
            wait.until(b -> !Objects.equals(firstRefresh,
                    b.findElement(By.tagName("body")).getDomAttribute("data-refreshed")));
            pauseRefreshing(wait);

            assertThat(rows("#jobs-table tbody tr")).extracting(row -> row.getDomAttribute("data-job-id"))
                    .containsExactly("nightly-report", JOB);
            assertThat(rows("#checkpoints-table tbody tr[data-status='COMPLETED']"))
                    .extracting(row -> Long.parseLong(row.getDomAttribute("data-checkpoint-id")))
                    .containsExactlyInAnyOrderElementsOf(completed);
            assertThat(browser.findElement(By.cssSelector("#checkpoints-table tr[data-checkpoint-id='" + failed
                    + "']")).getText()).contains("CHECKPOINT_DECLINED");
            assertThat(rows("#plot-duration circle.point.completed")).hasSize(completed.size());
            assertThat(rows("#plot-duration circle.point.failed")).hasSize(1);
            assertThat(rows("#plot-size circle.point")).hasSize(completed.size());
            assertThat(browser.findElement(By.cssSelector("#plot-duration polyline.series")).getDomAttribute("points"))
                    .as("a line through the completed checkpoints").isNotBlank();
            assertThat(rows("#timeline g.subtask-row.missing")).extracting(row -> row.getDomAttribute("data-subtask"))
                    .containsExactly("sink#0");
            assertThat(rows("#timeline g.subtask-row.acked")).hasSize(SUBTASKS.size() - 1);
            assertThat(browser.findElement(By.id("missing-subtasks")).getText())
                    .contains("sink #0 on " + host(SUBTASKS.get(5)));
            assertThat(browser.findElement(By.cssSelector("#missing-subtasks [data-subtask='sink#0']"))
                    .getDomAttribute("data-host")).isEqualTo(host(SUBTASKS.get(5)));
            assertTheSummary(cairn, completed);
            assertThat(configRow("interval")).isEqualTo("300 ms");
            assertThat(configRow("timeout")).isEqualTo("10 min");
            assertThat(configRow("min_pause")).isEqualTo("0 ms");
            assertThat(configRow("max_concurrent")).isEqualTo("1");
            assertThat(configRow("tolerable_failed_checkpoints")).isEqualTo("100");
            assertThat(configRow("storage_base_location")).isEqualTo("s3://checkpoints");
            assertThat(configRow("retained")).isEqualTo("3");
            assertThat(configRow("mode")).isEqualTo("exactly once");
            assertThat(browser.findElement(By.cssSelector("#counts [data-count='completed'] .value")).getText())
                    .isEqualTo(String.valueOf(completed.size()));
            assertThat(browser.findElement(By.id("restore-point")).getText())
                    .isEqualTo("Restore point: checkpoint #" + completed.get(completed.size() - 1)
                            + " (s3://checkpoints/" + JOB + "/chk-" + completed.get(completed.size() - 1) + ")");
            assertThat(browser.findElement(By.id("savepoints-table")).getText())
                    .contains("The job keeps no savepoint.");
            assertThat(severeBrowserLogs()).isEmpty();
            browser.findElement(By.id("auto-refresh")).click();
            saveScreenshot();
        }
    }

    @Test
    void shouldAskForABearerTokenWhenReadsNeedOneAndKeepItForTheTab(KafkaCluster kafka, @TempDir Path stateDir) {
        try (CoordinatorTestBed cairn = CoordinatorTestBed.on(kafka, stateDir)
                .withRestApi(CoordinatorTestBed.restApi(true)).start()) {
            cairn.register(spec("guarded", 3_600_000, new String[] {"source", "1"}));
            browser.get(cairn.restUri() + "/");
            WebDriverWait wait = new WebDriverWait(browser, BROWSER_WAIT);
            wait.until(b -> b.findElement(By.id("auth")).isDisplayed());
            assertThat(browser.findElement(By.id("error")).getText()).contains("GET /jobs answered 401")
                    .contains("needs an 'Authorization: Bearer <token>' header");

            browser.findElement(By.id("token-input")).sendKeys(CoordinatorTestBed.REST_TOKEN);
            browser.findElement(By.cssSelector("#token-form button[type='submit']")).click();

            wait.until(b -> !rows("#jobs-table tbody tr[data-job-id='guarded']").isEmpty());
            pauseRefreshing(wait);
            assertThat(browser.findElement(By.id("error")).isDisplayed()).isFalse();
            assertThat(browser.executeScript("return sessionStorage.getItem('cairn.token')"))
                    .isEqualTo(CoordinatorTestBed.REST_TOKEN);
        }
    }

    /**
     * The summary: both jobs running, the checkpoints of both jobs completed (the report job's tasks never started,
     * so only the job's), failed (the declined one and those that failed as GET /jobs counts them: the report job's,
     * and the job's while its tasks were still starting) and pending, and each job's latest completed checkpoint.
     */
    private void assertTheSummary(CoordinatorTestBed cairn, List<Long> completed) {
        long failed = 0;
        long pending = 0;
        for (JsonNode job : RestClient.json(cairn.rest().get("/jobs")).get("jobs")) {
            failed += job.get("counts").get("failed").asLong();
            pending += job.get("pending_checkpoints").asLong();
        }
        assertThat(failed).as("the declined checkpoint at least").isPositive();
        assertThat(browser.findElement(By.cssSelector("#jobs-by-status [data-jobs-status='RUNNING']")).getText())
                .isEqualTo("2\nrunning jobs");
        assertThat(browser.findElement(By.cssSelector("#checkpoint-totals [data-total='completed'] .value"))
                .getText()).isEqualTo(String.valueOf(completed.size()));
        assertThat(browser.findElement(By.cssSelector("#checkpoint-totals [data-total='failed'] .value")).getText())
                .isEqualTo(String.valueOf(failed));
        assertThat(browser.findElement(By.cssSelector("#checkpoint-totals [data-total='pending'] .value")).getText())
                .isEqualTo(String.valueOf(pending));
        assertThat(browser.findElement(By.cssSelector("#latest-table tr[data-job-id='" + JOB + "']")).getText())
                .contains(JOB + " #" + completed.get(completed.size() - 1));
        assertThat(browser.findElement(By.cssSelector("#latest-table tr[data-job-id='nightly-report']")).getText())
                .isEqualTo("nightly-report none yet");
    }

    /** What the configuration view shows for {@code key} (a field of GET /jobs/{jobId}/checkpoints/config). */
    private String configRow(String key) {
        return browser.findElement(By.cssSelector("#config-table tr[data-key='" + key + "'] td")).getText();
    }

    /** Turns the page's refresh off and waits for a refresh under way to end, so that elements stay put. */
    private void pauseRefreshing(WebDriverWait wait) {
        browser.findElement(By.id("auto-refresh")).click();
        wait.until(b -> "false".equals(b.findElement(By.tagName("body")).getDomAttribute("data-busy")));
    }

    private List<WebElement> rows(String css) {
        return browser.findElements(By.cssSelector(css));
    }

    private List<String> severeBrowserLogs() {
        List<String> severe = new ArrayList<>();
        for (LogEntry entry : browser.manage().logs().get(LogType.BROWSER)) {
            if (entry.getLevel().intValue() >= Level.SEVERE.intValue()) {
                severe.add(entry.getMessage());
            }
        }
        return severe;
    }

    /** The whole page, at its full height, in {@code target/web-page.png}. */
    private void saveScreenshot() throws Exception {
        JavascriptExecutor page = browser;
        long height = (Long) page.executeScript("return document.documentElement.scrollHeight");
        long chrome = 900 - (Long) page.executeScript("return window.innerHeight");
        browser.manage().window().setSize(new Dimension(1280, (int) Math.min(height + chrome, 4000)));
        Path png = Path.of(System.getProperty("basedir", "."), "target", "web-page.png");
        Files.write(png, ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
        assertThat(Files.size(png)).isPositive();
    }

    private static String attempt(String[] subtask) {
        return subtask[0] + "-" + subtask[1] + "-attempt-1";
    }

    /** The host the subtask's sidecar names in its TaskStarted. */
    private static String host(String[] subtask) {
        return "worker-" + subtask[0] + "-" + subtask[1] + ".pool-a.cluster.local";
    }

    /** A job of the given tasks ({task, parallelism}), checkpointed every {@code intervalMs}, timeout 10 min. */
    private static JobSpec spec(String jobId, long intervalMs, String[]... tasks) {
        List<TaskVertex> vertices = new ArrayList<>();
        for (String[] task : tasks) {
            vertices.add(Events.task(task[0], Integer.parseInt(task[1])));
        }
        return Events.jobSpec(jobId).setTasks(vertices).setConfig(Events.config(intervalMs, 600_000).setRetained(3)
                .setTolerableFailures(100).setStorageBaseLocation("s3://checkpoints").build()).build();
    }

    /**
     * Plays the job's sidecars: acknowledges each subtask a little later than the one before it (waiting for the
     * wall clock, so that every ack carries the time it was sent), with states that grow from round to round.
     */
    private record Sidecars(CoordinatorTestBed cairn) {

        void ackAllBut(CheckpointTriggered trigger, int round, String[] straggler) throws Exception {
            for (int k = 0; k < SUBTASKS.size(); k++) {
                String[] s = SUBTASKS.get(k);
                if (s == straggler) {
                    continue;
                }
                waitUntil(trigger.getTimestampMs() + 40 + 22L * k + 45L * ((round * 7) % 5));
                long size = switch (s[0]) {
                    case "source" -> 2_048 + 512L * round;
                    case "enrich" -> 96_000 + 14_000L * round + 3_000L * k;
                    default -> 700;
                };
                cairn.sendAck(JOB, Events.ack(JOB, trigger.getCheckpointId(), s[0], Integer.parseInt(s[1]), attempt(s))
                        .setStateHandle(Events.state(trigger.getStorageLocation() + "/" + s[0] + "-" + s[1], size))
                        .setMetrics(SubtaskMetrics.newBuilder().setSyncDurationMs(3).setAsyncDurationMs(20 + k).build())
                        .build());
            }
        }

        void declineAfter(CheckpointTriggered trigger, String[] s, long delayMs) throws Exception {
            waitUntil(trigger.getTimestampMs() + delayMs);
            cairn.sendAck(JOB, Events.decline(JOB, trigger.getCheckpointId(), s[0], Integer.parseInt(s[1]), attempt(s))
                    .setMessage("snapshot of the enrichment cache failed: disk full").build());
        }

        private static void waitUntil(long epochMs) {
            Awaitility.await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5)).atMost(Duration.ofSeconds(5))
                    .until(() -> System.currentTimeMillis() >= epochMs);
        }
    }
}
