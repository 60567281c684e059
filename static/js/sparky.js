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

    form.addEventListener("htmx:beforeRequest", function () {
      announce("Sparky is thinking…");
    });
    form.addEventListener("htmx:afterRequest", function (event) {
      if (event.detail.successful) {
        // Only a delivered message clears the box; a refused or failed one keeps the text.
        textarea.value = "";
        tooLong();
        clearPhoto();
        showError("");
        keyField.value = newKey();
        grow();
        announce("Sparky replied.");
      } else {
        announce("The message was not sent.");
      }
      textarea.focus();
    });

    document.querySelectorAll(".example").forEach(function (button) {
      button.addEventListener("click", function () {
        textarea.value = button.dataset.example;
        grow();
        textarea.focus();
      });
    });
  }

  // A request that got no usable answer (network down, server error) says so in the thread.
  function reportFailure(event) {
    var thread = byId("thread");
    var source = event.detail && event.detail.elt;
    if (!thread || !source || !(source.closest("#composer") || source.closest(".options"))) return;
    var xhr = event.detail.xhr;
    var status = xhr ? xhr.status : 0;
    if (status === 422) return; // the server's own explanation was swapped in
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
