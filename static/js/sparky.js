// Sparky's page behaviour on top of htmx: the message box (Enter to send, photos, keeping the
// text when a send fails), the thinking state for screen readers, option buttons, phone tabs.
// Everything here is an enhancement; the forms still post without it.
(function () {
  "use strict";

  var ALLOWED_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"];

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "k" + Date.now().toString(36) + Math.random().toString(36).slice(2);
  }

  function byId(id) {
    return document.getElementById(id);
  }

  function scrollThread() {
    var thread = byId("thread");
    if (thread) thread.scrollTop = thread.scrollHeight;
  }

  // Only the newest reply's options can still be picked; older groups are switched off.
  function refreshOptions() {
    var thread = byId("thread");
    if (!thread) return;
    var replies = thread.querySelectorAll(".msg--reply");
    var latest = replies.length ? replies[replies.length - 1] : null;
    thread.querySelectorAll(".options").forEach(function (group) {
      var open = latest && latest.contains(group);
      group.classList.toggle("options--closed", !open);
      group.querySelectorAll("button").forEach(function (b) {
        if (!open) b.disabled = true;
      });
    });
  }

  function announce(text) {
    var status = byId("chat-status");
    if (status) status.textContent = text;
  }

  function setupComposer() {
    var form = byId("composer");
    if (!form) return;
    var textarea = byId("message");
    var input = byId("image");
    var box = byId("attachment");
    var thumb = byId("attachment-thumb");
    var name = byId("attachment-name");
    var removeButton = byId("attachment-remove");
    var error = byId("attach-error");
    var keyField = form.querySelector("input[name=idempotency_key]");
    var maxBytes = parseInt(form.dataset.maxBytes, 10) || 8 * 1024 * 1024;
    var maxMb = form.dataset.maxMb || Math.round(maxBytes / 1048576);
    var previewUrl = null;

    keyField.value = newKey();

    function grow() {
      textarea.style.height = "auto";
      textarea.style.height = Math.min(textarea.scrollHeight, 200) + "px";
    }

    function clearPhoto() {
      input.value = "";
      if (previewUrl) URL.revokeObjectURL(previewUrl);
      previewUrl = null;
      box.hidden = true;
      thumb.removeAttribute("src");
      name.textContent = "";
    }

    function showError(text) {
      error.textContent = text;
      error.hidden = !text;
    }

    // The same checks the server makes, so a wrong file is refused before it is uploaded.
    function checkPhoto(file) {
      if (ALLOWED_TYPES.indexOf(file.type) < 0) {
        return file.name + " is not a JPEG, PNG, WebP or GIF photo.";
      }
      if (file.size > maxBytes) {
        return (
          "The photo is " + (file.size / 1048576).toFixed(1) + " MB; the limit is " + maxMb + " MB."
        );
      }
      return "";
    }

    function usePhoto(file) {
      var problem = checkPhoto(file);
      if (problem) {
        clearPhoto();
        showError(problem);
        return;
      }
      showError("");
      if (previewUrl) URL.revokeObjectURL(previewUrl);
      previewUrl = URL.createObjectURL(file);
      thumb.src = previewUrl;
      name.textContent = file.name + " (" + Math.max(1, Math.round(file.size / 1024)) + " KB)";
      box.hidden = false;
    }

    input.addEventListener("change", function () {
      if (input.files && input.files[0]) usePhoto(input.files[0]);
      else clearPhoto();
    });
    removeButton.addEventListener("click", function () {
      clearPhoto();
      showError("");
      textarea.focus();
    });

    // Drop a photo anywhere on the chat column.
    var zone = byId("chat-panel") || form;
    ["dragenter", "dragover"].forEach(function (type) {
      zone.addEventListener(type, function (event) {
        if (event.dataTransfer && Array.prototype.indexOf.call(event.dataTransfer.types, "Files") >= 0) {
          event.preventDefault();
          zone.classList.add("dropping");
        }
      });
    });
    ["dragleave", "drop"].forEach(function (type) {
      zone.addEventListener(type, function () {
        zone.classList.remove("dropping");
      });
    });
    zone.addEventListener("drop", function (event) {
      var files = event.dataTransfer && event.dataTransfer.files;
      if (!files || !files.length) return;
      event.preventDefault();
      var transfer = new DataTransfer();
      transfer.items.add(files[0]);
      input.files = transfer.files;
      usePhoto(files[0]);
    });

    // A paste longer than the limit is kept whole and the box says so, instead of the browser
    // cutting it silently (a maxlength would): the user splits it, nothing is lost.
    var maxChars = parseInt(textarea.dataset.maxChars, 10) || 4000;
    var limitNote = byId("composer-limit");
    function tooLong() {
      var over = textarea.value.length > maxChars;
      if (limitNote) {
        limitNote.hidden = !over;
        limitNote.textContent = over
          ? "Your message is " + textarea.value.length.toLocaleString() + " characters; the " +
            "limit is " + maxChars.toLocaleString() + ". Split it into shorter messages."
          : "";
      }
      textarea.setAttribute("aria-invalid", over ? "true" : "false");
      return over;
    }
    textarea.addEventListener("input", tooLong);

    textarea.addEventListener("input", grow);
    textarea.addEventListener("keydown", function (event) {
      if (event.key !== "Enter" || event.shiftKey || event.isComposing) return;
      event.preventDefault();
      if (form.classList.contains("htmx-request")) return;
      form.requestSubmit();
    });

    form.addEventListener("submit", function (event) {
      var photo = input.files && input.files[0];
      var problem = photo ? checkPhoto(photo) : "";
      if (tooLong()) {
        event.preventDefault();
        event.stopImmediatePropagation();
        announce("The message is longer than the limit; it was not sent.");
        return;
      }
      if (problem) {
        event.preventDefault();
        event.stopImmediatePropagation();
        showError(problem);
      }
    }, true);

    // Only a delivered message clears the box; a refused or failed one keeps the text.
    function delivered() {
      textarea.value = "";
      tooLong();
      clearPhoto();
      showError("");
      keyField.value = newKey();
      grow();
    }

    form.addEventListener("htmx:beforeRequest", function () {
      announce("Sparky is thinking…");
    });
    form.addEventListener("htmx:afterRequest", function (event) {
      if (event.detail.successful) {
        delivered();
        announce("Sparky replied.");
      } else {
        announce("The message was not sent.");
      }
      textarea.focus();
    });

    setupStreaming(form, textarea, delivered);

    document.querySelectorAll(".example").forEach(function (button) {
      button.addEventListener("click", function () {
        textarea.value = button.dataset.example;
        grow();
        textarea.focus();
      });
    });
  }

  // The reply as it is written: where the browser can read a fetch stream, the composer asks
  // for the turn as server-sent events (the step being run, the words, each saved entry's chip)
  // instead of htmx's one answer at the end; the finished turn then takes the live bubble's
  // place, drawn by the server as htmx would have had it. Without this, htmx (or a plain post)
  // sends the form as before.
  function setupStreaming(form, textarea, delivered) {
    if (!window.fetch || !window.ReadableStream || !window.TextDecoder || !window.FormData) return;
    var sendButton = form.querySelector(".composer__send");

    function element(tag, className, text) {
      var node = document.createElement(tag);
      if (className) node.className = className;
      if (text) node.textContent = text;
      return node;
    }

    function liveTurn(text, hasPhoto) {
      var box = element("div", "turn-live");
      var asked = element("article", "msg msg--user");
      asked.setAttribute("aria-label", "You said");
      asked.appendChild(element("p", "msg__text" + (text ? "" : " muted"), text || (hasPhoto ? "(photo)" : "")));
      // not yet a .msg--reply: that is the finished reply, drawn by the server
      var reply = element("article", "msg msg--live");
      reply.setAttribute("aria-label", "Sparky is replying");
      reply.setAttribute("aria-busy", "true");
      var step = element("p", "msg__step");
      step.setAttribute("role", "status");
      var dots = element("span", "thinking__dots");
      dots.setAttribute("aria-hidden", "true");
      for (var i = 0; i < 3; i++) dots.appendChild(element("span"));
      step.appendChild(dots);
      step.appendChild(element("span", "msg__step-text", "Sending…"));
      var words = element("p", "msg__text msg__draft");
      var chips = element("ul", "chips");
      chips.setAttribute("aria-label", "Saved to your diary");
      chips.hidden = true;
      reply.appendChild(step);
      reply.appendChild(words);
      reply.appendChild(chips);
      box.appendChild(asked);
      box.appendChild(reply);
      return box;
    }

    function shown(thread, node) {
      var intro = thread.querySelector(".intro");
      if (intro) intro.remove();
      thread.appendChild(node);
      scrollThread();
    }

    // Each "event: name / data: json" block of the body, handed to `handle` as it arrives.
    function readEvents(response, handle) {
      var reader = response.body.getReader();
      var decoder = new TextDecoder();
      var buffer = "";
      function pump() {
        return reader.read().then(function (part) {
          buffer += decoder.decode(part.value || new Uint8Array(), { stream: !part.done });
          var blocks = buffer.split("\n\n");
          buffer = part.done ? "" : blocks.pop();
          blocks.forEach(function (block) {
            var name = "message";
            var data = "";
            block.split("\n").forEach(function (line) {
              if (line.indexOf("event: ") === 0) name = line.slice(7);
              else if (line.indexOf("data: ") === 0) data += line.slice(6);
            });
            if (data) handle(name, JSON.parse(data));
          });
          if (!part.done) return pump();
        });
      }
      return pump();
    }

    function finish(live, html, dates) {
      var template = document.createElement("template");
      template.innerHTML = html;
      var nodes = Array.prototype.slice.call(template.content.children);
      live.replaceWith(template.content);
      nodes.forEach(function (node) {
        if (window.htmx) htmx.process(node);
      });
      refreshOptions();
      scrollThread();
      if (dates && dates.length && window.htmx) htmx.trigger(document.body, "diary-changed", { dates: dates });
    }

    form.addEventListener("submit", function (event) {
      if (event.defaultPrevented) return; // refused by the checks above
      event.preventDefault();
      event.stopImmediatePropagation(); // htmx does not send it as well
      if (form.classList.contains("htmx-request")) return;
      var thread = byId("thread");
      var body = new FormData(form);
      var selector = byId("tool-selector");
      if (selector) {
        new FormData(selector).forEach(function (value, key) {
          if (key !== "csrfmiddlewaretoken") body.append(key, value);
        });
      }
      var photo = body.get("image");
      var live = liveTurn(textarea.value.trim(), photo && photo.size);
      var stepText = live.querySelector(".msg__step-text");
      var draft = live.querySelector(".msg__draft");
      var chips = live.querySelector(".chips");
      var ended = false;
      var accepted = false;
      var status = 0;
      shown(thread, live);
      form.classList.add("htmx-request");
      sendButton.disabled = true;
      announce("Sparky is thinking…");

      function handle(name, data) {
        if (name === "step") {
          stepText.textContent = data.text;
        } else if (name === "text") {
          draft.textContent += data.text;
          scrollThread();
        } else if (name === "entry") {
          var chip = element("li", "chip chip--" + data.kind, data.text);
          if (data.title && data.title !== data.text) chip.title = data.title;
          chips.appendChild(chip);
          chips.hidden = false;
          scrollThread();
          if (window.htmx) htmx.trigger(document.body, "diary-changed", {}); // the diary follows
        } else if (name === "done") {
          ended = true;
          finish(live, data.html, data.dates);
          announce("Sparky replied.");
        } else if (name === "error") {
          ended = true;
          live.querySelector(".msg__step").remove();
          draft.textContent = data.message;
          live.querySelector(".msg--live").classList.add("msg--error");
          announce("Sparky couldn't finish the reply.");
        }
      }

      fetch(form.action, {
        method: "POST",
        body: body,
        credentials: "same-origin",
        headers: { Accept: "text/event-stream", "HX-Request": "true" },
      })
        .then(function (response) {
          if (response.status === 422 || response.status === 429) {
            return response.text().then(function (html) {
              var template = document.createElement("template");
              template.innerHTML = html; // the server's own explanation
              live.remove();
              shown(thread, template.content);
              announce("The message was not sent.");
            });
          }
          if (!response.ok || !response.body) {
            status = response.status;
            throw new Error("status " + status);
          }
          accepted = true;
          delivered();
          return readEvents(response, handle).then(function () {
            if (!ended) throw new Error("cut off");
          });
        })
        .catch(function () {
          if (ended) return;
          if (accepted) {
            // The message reached Sparky, which finishes the turn whatever happens here.
            live.querySelector(".msg__step").remove();
            draft.textContent =
              "The connection dropped while Sparky was answering. Your message is saved; reload " +
              "the page to see the reply.";
            live.querySelector(".msg--live").classList.add("msg--error");
          } else {
            live.remove();
            var note = element(
              "div",
              "msg msg--rejected",
              (status
                ? "Sparky couldn't answer (server error " + status + "). "
                : "Sparky can't be reached right now (check your connection). ") +
                "Your message is still in the box; send it again in a moment."
            );
            note.setAttribute("role", "alert");
            shown(thread, note);
          }
          announce("The reply did not arrive.");
        })
        .then(function () {
          form.classList.remove("htmx-request");
          sendButton.disabled = false;
          textarea.focus();
        });
    }, true);
  }

  // A request that got no usable answer (network down, server error) says so in the thread.
  function reportFailure(event) {
    var thread = byId("thread");
    var source = event.detail && event.detail.elt;
    if (!thread || !source || !(source.closest("#composer") || source.closest(".options"))) return;
    var xhr = event.detail.xhr;
    var status = xhr ? xhr.status : 0;
    if (status === 422 || status === 429) return; // the server's own explanation was swapped in
    var note = document.createElement("div");
    note.className = "msg msg--rejected";
    note.setAttribute("role", "alert");
    var text = status
      ? "Sparky couldn't answer (server error " + status + "). "
      : "Sparky can't be reached right now (check your connection). ";
    note.textContent = text + "Your message is still in the box; send it again in a moment.";
    thread.appendChild(note);
    scrollThread();
    announce("The message was not sent.");
    if (source.tagName === "BUTTON") source.disabled = false;
  }

  function setupTabs() {
    var tabs = Array.prototype.slice.call(document.querySelectorAll('.tabs [role="tab"]'));
    if (!tabs.length) return;
    function select(tab) {
      tabs.forEach(function (t) {
        var on = t === tab;
        t.setAttribute("aria-selected", on ? "true" : "false");
        t.tabIndex = on ? 0 : -1;
        var panel = byId(t.getAttribute("aria-controls"));
        if (panel) panel.classList.toggle("tab-hidden", !on);
      });
      if (tab.id === "tab-chat") scrollThread();
    }
    tabs.forEach(function (tab, i) {
      tab.addEventListener("click", function () {
        select(tab);
      });
      tab.addEventListener("keydown", function (event) {
        var step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
        if (!step) return;
        var next = tabs[(i + step + tabs.length) % tabs.length];
        select(next);
        next.focus();
      });
    });
    select(tabs[0]);
  }

  function browserZone() {
    try {
      return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    } catch (e) {
      return "";
    }
  }

  // The browser's own time zone is proposed first in the preferences' time-zone list.
  function setupZoneSelect() {
    var select = document.querySelector("select[data-browser-zone]");
    var zone = browserZone();
    if (!select || !zone) return;
    var known = Array.prototype.find.call(select.options, function (o) {
      return o.value === zone;
    });
    var group = document.createElement("optgroup");
    group.label = "Your browser's time zone";
    var option = document.createElement("option");
    option.value = zone;
    option.textContent = known ? known.textContent : zone.replace(/_/g, " ");
    group.appendChild(option);
    select.insertBefore(group, select.firstChild);
    if (known && known.selected) option.selected = true;
    if (known) known.remove();
  }

  // The AI service form marks what the chosen provider needs (a model, a key, a URL).
  function setupProviderFields() {
    var provider = document.querySelector('select[name="service_type"]');
    if (!provider) return;
    var form = provider.form;
    var keyKept = !!(form.querySelector('input[name="kept_key"]') || {}).value;
    var keySet = !!form.querySelector('input[name="api_key"][placeholder]');
    function mark() {
      form.querySelectorAll("[data-required-for]").forEach(function (input) {
        var needed = input.dataset.requiredFor.split(" ").indexOf(provider.value) >= 0;
        if (input.name === "api_key" && (keyKept || keySet)) needed = false;
        var star = form.querySelector('label[for="' + input.id + '"] .required');
        if (star) star.hidden = !needed;
        if (needed) input.setAttribute("aria-required", "true");
        else input.removeAttribute("aria-required");
      });
    }
    provider.addEventListener("change", mark);
    mark();
  }

  // Notes can be put away; without script they stay until the next page.
  function setupFlash() {
    document.querySelectorAll(".flash__close").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        var item = button.closest(".flash__item");
        var box = item.parentNode;
        item.remove();
        if (!box.querySelector(".flash__item")) box.remove();
      });
    });
  }

  function setupSignup() {
    var field = document.querySelector('input[type=hidden][name="time_zone"]');
    if (!field || field.value) return;
    field.value = browserZone(); // empty when unknown: the server keeps its default
  }

  document.addEventListener("DOMContentLoaded", function () {
    setupComposer();
    setupTabs();
    setupSignup();
    setupZoneSelect();
    setupProviderFields();
    setupFlash();
    refreshOptions();
    scrollThread();
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "thread") {
      var intro = event.detail.target.querySelector(".intro");
      if (intro && event.detail.target.querySelector(".msg")) intro.remove();
      refreshOptions();
      scrollThread();
    }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail.target;
    if (target && target.closest && target.closest("#thread")) scrollThread();
  });
  // htmx re-enables a clicked option button once its request ends, after the swap: close again.
  document.addEventListener("htmx:afterRequest", refreshOptions);
  document.addEventListener("htmx:responseError", reportFailure);
  document.addEventListener("htmx:sendError", reportFailure);
  document.addEventListener("htmx:timeout", reportFailure);
})();
