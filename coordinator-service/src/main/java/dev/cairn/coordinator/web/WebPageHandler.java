package dev.cairn.coordinator.web;

import dev.cairn.client.Json;
import dev.cairn.core.views.ApiViews;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Serves the web page: {@code /} (the page) and its assets under {@code /ui/} ({@code app.js}, {@code charts.js},
 * {@code style.css}, {@code favicon.svg}), read once from the jar's {@code cairn-ui/} folder. Every other path is
 * left to the next handler (the REST API). The page only talks to this origin: its Content-Security-Policy forbids
 * inline scripts and other origins. A method other than GET or HEAD on a page path is answered 405.
 */
public final class WebPageHandler extends Handler.Abstract {

    private static final String FOLDER = "cairn-ui/";
    private static final String SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
    private static final Map<String, String> TYPES = Map.of("html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8", "css", "text/css; charset=utf-8", "svg", "image/svg+xml");

    private record Asset(byte[] bytes, String contentType) {
    }

    /** The page and its assets, by the path they are served at. */
    private final Map<String, Asset> assets;

    /** @throws IllegalStateException when an asset is missing from the class path (a broken build) */
    public WebPageHandler() {
        Asset page = load("index.html");
        this.assets = Map.of("/", page, "/index.html", page, "/ui/app.js", load("app.js"),
                "/ui/charts.js", load("charts.js"), "/ui/style.css", load("style.css"),
                "/ui/favicon.svg", load("favicon.svg"));
    }

    private static Asset load(String name) {
        try (InputStream in = WebPageHandler.class.getClassLoader().getResourceAsStream(FOLDER + name)) {
            if (in == null) {
                throw new IllegalStateException("the web page's " + FOLDER + name + " is missing from the class path");
            }
            return new Asset(in.readAllBytes(), TYPES.get(name.substring(name.lastIndexOf('.') + 1)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the web page's " + FOLDER + name, e);
        }
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        Asset asset = assets.get(request.getHttpURI().getPath());
        if (asset == null) {
            return false;
        }
        String method = request.getMethod();
        boolean head = method.equals("HEAD");
        if (!head && !method.equals("GET")) {
            response.setStatus(405);
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
            response.write(true, ByteBuffer.wrap(Json.bytes(new ApiViews.Error(method + " is not allowed on the web "
                    + "page; allowed: GET, HEAD"))), callback);
            return true;
        }
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, asset.contentType());
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.getHeaders().put("Content-Security-Policy", SECURITY_POLICY);
        response.getHeaders().put("Referrer-Policy", "no-referrer");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, asset.bytes().length);
        response.write(true, head ? ByteBuffer.allocate(0) : ByteBuffer.wrap(asset.bytes()), callback);
        return true;
    }
}
