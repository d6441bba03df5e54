// The per-frame uniforms every render program shares (render::ViewUniforms, std140, binding
// VIEW_BINDING) and the shading that gives a frame its one look: sun, sky and fog.
// GL names the vertex and instance index gl_VertexID and gl_InstanceID, Vulkan GLSL (which the
// shader statistics compile, scripts/shader-stats.sh) gl_VertexIndex and gl_InstanceIndex: the same
// numbers here, where every draw starts at instance 0 and none is indexed (both vertex indices
// include the draw's first vertex).
#ifdef VULKAN
#define VERTEX_INDEX gl_VertexIndex
#define INSTANCE_INDEX gl_InstanceIndex
#else
#define VERTEX_INDEX gl_VertexID
#define INSTANCE_INDEX gl_InstanceID
#endif

layout(std140, binding = VIEW_BINDING) uniform View {
  mat4 viewProjection;
  mat4 inverseViewProjection;
  vec4 eye;           // xyz: camera position; w: time in seconds (wing beats)
  vec4 cameraRight;   // xyz: unit, screen right; w: pixels per unit at clip depth 1 (Camera::pixelsPerUnitAtDepthOne)
  vec4 cameraUp;      // xyz: unit, screen up
  vec4 sunDirection;  // xyz: unit, towards the sun
  vec4 sunColour;
  vec4 skyZenith;
  vec4 skyMiddle;     // halfway up from the horizon to the zenith
  vec4 skyHorizon;
  vec4 groundHaze;
  vec4 fog;           // x: density per unit of distance; y: the most fog can hide (0..1)
  vec4 leaderColour;  // emergent leaders, coloured by group
  vec4 palette[PALETTE_SIZE];
} view;

vec3 groupColour(uint group) { return view.palette[group % uint(PALETTE_SIZE)].rgb; }

// The sky seen along direction: zenith to horizon above, haze below, a glow around the sun.
vec3 skyColour(vec3 direction) {
  float elevation = direction.y;
  // Smooth through the horizon: a soft bright band, no edge. Above it, horizon -> middle -> zenith.
  float up = smoothstep(0.0, 0.6, elevation);
  vec3 above = up < 0.5 ? mix(view.skyHorizon.rgb, view.skyMiddle.rgb, 2.0 * up)
                        : mix(view.skyMiddle.rgb, view.skyZenith.rgb, 2.0 * up - 1.0);
  vec3 sky = elevation >= 0.0 ? above : mix(view.skyHorizon.rgb, view.groundHaze.rgb, smoothstep(0.0, 0.5, -elevation));
  float sun = max(dot(direction, view.sunDirection.xyz), 0.0);
  return sky + view.sunColour.rgb * (0.25 * pow(sun, 24.0) + 0.6 * pow(sun, 800.0));
}

// Distance fog towards the horizon colour: far boids fade into the sky, which gives depth.
vec3 applyFog(vec3 colour, vec3 worldPosition) {
  float distance = length(worldPosition - view.eye.xyz);
  float amount = (1.0 - exp(-distance * view.fog.x)) * view.fog.y;
  return mix(colour, view.skyHorizon.rgb, amount);
}

// Sun (wrapped diffuse, a little specular) plus a sky-to-ground ambient; normal is unit. A fully
// lit face gets at most its base colour (plus the highlight): brighter would clip a channel and
// turn the hue (amber to yellow).
vec3 shade(vec3 base, vec3 normal, vec3 worldPosition) {
  vec3 toEye = normalize(view.eye.xyz - worldPosition);
  float diffuse = max(dot(normal, view.sunDirection.xyz) * 0.6 + 0.4, 0.0);
  // Ambient light, more from above than below, only slightly tinted by the sky so that group
  // colours keep their hue.
  vec3 skyTint = mix(vec3(1.0), view.skyZenith.rgb / max(view.skyZenith.b, 1e-3), 0.15);
  vec3 ambient = (0.4 + 0.15 * (0.5 + 0.5 * normal.y)) * skyTint;
  vec3 halfway = normalize(view.sunDirection.xyz + toEye);
  float specular = pow(max(dot(normal, halfway), 0.0), 40.0) * 0.12;
  vec3 lit = base * (ambient + view.sunColour.rgb * diffuse * 0.45) + view.sunColour.rgb * specular;
  return applyFog(lit, worldPosition);
}
