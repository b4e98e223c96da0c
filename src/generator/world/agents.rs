//! What a user brings to a call: an SDK and its version on a device, and the devices' labels.

use super::*;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(in crate::generator) enum Sdk {
    Web,
    Android,
    Ios,
    Flutter,
}

pub(in crate::generator) struct Agent {
    /// The whole `agent` object, rendered once.
    pub json: Box<[u8]>,
    pub sdk: Sdk,
    pub sdk_version: &'static str,
    pub prebuilt: bool,
}

pub(in crate::generator) struct AgentSpec {
    pub sdk: Sdk,
    pub sdk_version: &'static str,
    pub device_model: &'static str,
    pub os: &'static str,
    pub os_version: &'static str,
    pub is_prebuilt: bool,
    pub framework: &'static str,
    pub framework_version: &'static str,
    pub framework_sdk_version: &'static str,
    pub domain: &'static str,
    pub env: &'static str,
}

impl AgentSpec {
    pub(in crate::generator) fn build(&self) -> Agent {
        let sdk = match self.sdk {
            Sdk::Web => "web",
            Sdk::Android => "android",
            Sdk::Ios => "ios",
            Sdk::Flutter => "flutter",
        };
        let prebuilt = if self.is_prebuilt { "true" } else { "false" };
        let summary = format!(
            "sdk:{sdk},sdk_version:{},device_model:{},os:{},os_version:{},is_prebuilt:{prebuilt},\
             framework:{},framework_version:{},framework_sdk_version:{},domain:{},env:{}",
            self.sdk_version,
            self.device_model,
            self.os,
            self.os_version,
            self.framework,
            self.framework_version,
            self.framework_sdk_version,
            self.domain,
            self.env,
        );
        let mut json = b"{\"sdk\":".to_vec();
        push_escaped(&mut json, sdk.as_bytes());
        push_field(&mut json, "sdk_version", self.sdk_version);
        push_field(&mut json, "device_model", self.device_model);
        push_field(&mut json, "os", self.os);
        push_field(&mut json, "os_version", self.os_version);
        json.extend_from_slice(b",\"is_prebuilt\":");
        json.extend_from_slice(prebuilt.as_bytes());
        push_field(&mut json, "framework", self.framework);
        push_field(&mut json, "framework_version", self.framework_version);
        push_field(
            &mut json,
            "framework_sdk_version",
            self.framework_sdk_version,
        );
        push_field(&mut json, "domain", self.domain);
        push_field(&mut json, "string", &summary);
        json.push(b'}');
        Agent {
            json: json.into_boxed_slice(),
            sdk: self.sdk,
            sdk_version: self.sdk_version,
            prebuilt: self.is_prebuilt,
        }
    }

    pub(in crate::generator) fn random(d: &mut Dice) -> Self {
        let sdk = *d.weighted(&[
            (Sdk::Web, 50),
            (Sdk::Android, 20),
            (Sdk::Ios, 18),
            (Sdk::Flutter, 12),
        ]);
        let (domain, env) = *d.weighted(AGENT_DOMAINS);
        let mut spec = AgentSpec {
            sdk,
            sdk_version: "",
            device_model: "",
            os: "",
            os_version: "",
            is_prebuilt: false,
            framework: "none",
            framework_version: "",
            framework_sdk_version: "",
            domain,
            env,
        };
        match sdk {
            Sdk::Web => {
                let system = d.weighted(WEB_SYSTEMS);
                spec.os = system.os;
                spec.os_version = *d.pick(system.versions);
                spec.device_model = *d.weighted(system.browsers);
                spec.sdk_version = *d.weighted(WEB_SDK_VERSIONS);
                match *d.weighted(&[("react", 60), ("none", 25), ("vue", 8), ("angular", 7)]) {
                    "react" => {
                        spec.framework = "react";
                        spec.framework_version = *d.pick(&["18.2.0", "18.3.1"]);
                        spec.framework_sdk_version = *d.pick(&["0.10.1", "0.10.6"]);
                        spec.is_prebuilt = d.chance(45);
                    }
                    "vue" => {
                        spec.framework = "vue";
                        spec.framework_version = "3.4.21";
                    }
                    "angular" => {
                        spec.framework = "angular";
                        spec.framework_version = "17.3.0";
                    }
                    _ => {}
                }
            }
            Sdk::Android | Sdk::Ios => {
                let (versions, models, os_versions) = if sdk == Sdk::Android {
                    (ANDROID_SDK_VERSIONS, ANDROID_MODELS, ANDROID_VERSIONS)
                } else {
                    (IOS_SDK_VERSIONS, IOS_MODELS, IOS_VERSIONS)
                };
                spec.sdk_version = *d.weighted(versions);
                spec.device_model = *d.pick(models);
                spec.os = match sdk {
                    Sdk::Android => "Android",
                    _ if spec.device_model.starts_with("iPad") => "iPadOS",
                    _ => "iOS",
                };
                spec.os_version = *d.pick(os_versions);
                if d.chance(35) {
                    spec.framework = "react-native";
                    spec.framework_version = *d.pick(&["0.74.5", "0.73.6"]);
                    spec.framework_sdk_version = "1.10.9";
                } else {
                    spec.is_prebuilt = d.chance(20);
                }
            }
            Sdk::Flutter => {
                spec.sdk_version = *d.weighted(FLUTTER_SDK_VERSIONS);
                spec.framework = "flutter";
                spec.framework_version = *d.pick(FLUTTER_VERSIONS);
                if d.chance(60) {
                    spec.device_model = *d.pick(ANDROID_MODELS);
                    spec.os = "Android";
                    spec.os_version = *d.pick(ANDROID_VERSIONS);
                    spec.framework_sdk_version = "2.9.58";
                } else {
                    spec.device_model = *d.pick(IOS_MODELS);
                    spec.os = if spec.device_model.starts_with("iPad") {
                        "iPadOS"
                    } else {
                        "iOS"
                    };
                    spec.os_version = *d.pick(IOS_VERSIONS);
                    spec.framework_sdk_version = "1.16.0";
                }
                spec.is_prebuilt = d.chance(15);
            }
        }
        spec
    }
}

/// The devices a user's machine reports; publish failures carry them.
pub(in crate::generator) struct Kit {
    pub devices: Box<[u8]>,
    pub camera: &'static str,
    pub camera_id: Box<str>,
    pub mic_id: Box<str>,
    pub volume: u32,
}

impl Kit {
    pub(in crate::generator) fn random(d: &mut Dice, web: bool) -> Self {
        let kit: &DeviceKit = if web { &WEB_DEVICES } else { &MOBILE_DEVICES };
        let mut devices = b"{".to_vec();
        let mut first_camera = None;
        let mut first_mic = None;
        let lists = [
            ("videoInput", "videoinput", kit.cameras),
            ("audioInput", "audioinput", kit.mics),
            ("audioOutput", "audiooutput", kit.speakers),
        ];
        for (list_index, (key, kind, labels)) in lists.into_iter().enumerate() {
            if list_index > 0 {
                devices.push(b',');
            }
            push_escaped(&mut devices, key.as_bytes());
            devices.extend_from_slice(b":[");
            let count = if web {
                d.range(1, 3).min(labels.len() as u64)
            } else {
                labels.len() as u64 - d.below(2)
            };
            let offset = d.index(labels.len());
            let group = hex_string(&d.bytes::<32>());
            for i in 0..count as usize {
                let label = labels[(offset + i) % labels.len()];
                let id = if web {
                    hex_string(&d.bytes::<32>())
                } else {
                    label.to_ascii_lowercase().replace(' ', "_")
                };
                if i > 0 {
                    devices.push(b',');
                }
                if web && kind != "videoinput" && i == 0 {
                    devices.extend_from_slice(b"{\"deviceId\":\"default\"");
                    push_field(&mut devices, "groupId", &group);
                    push_field(&mut devices, "kind", kind);
                    push_field(&mut devices, "label", &format!("Default - {label}"));
                    devices.extend_from_slice(b"},");
                }
                devices.extend_from_slice(b"{\"deviceId\":");
                push_escaped(&mut devices, id.as_bytes());
                if web {
                    push_field(&mut devices, "groupId", &group);
                    push_field(&mut devices, "kind", kind);
                }
                push_field(&mut devices, "label", label);
                devices.push(b'}');
                match kind {
                    "videoinput" if first_camera.is_none() => first_camera = Some((label, id)),
                    "audioinput" if first_mic.is_none() => {
                        first_mic = Some(if web { "default".to_string() } else { id })
                    }
                    _ => {}
                }
            }
            devices.push(b']');
        }
        devices.push(b'}');
        let (camera, camera_id) = first_camera.unwrap_or(("", String::new()));
        Kit {
            devices: devices.into_boxed_slice(),
            camera,
            camera_id: camera_id.into_boxed_str(),
            mic_id: first_mic.unwrap_or_default().into_boxed_str(),
            volume: *d.pick(&[100, 100, 100, 80, 65]),
        }
    }
}
