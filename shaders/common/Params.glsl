// The per-step constants, mirrored byte for byte by gpu::layout::StepParams (src/gpu/flock_layout.hpp).
layout(std140, binding = STEP_PARAMS_BINDING) uniform StepParamsBlock {
  vec4 worldMin;        //   0
  vec4 worldMax;        //  16
  vec4 worldSize;       //  32
  vec4 gridOrigin;      //  48
  vec4 gridCellSize;    //  64
  ivec4 gridCells;      //  80  xyz per axis, w total
  float margin;         //  96
  float dt;             // 100
  float mass;           // 104
  float maxSpeed;       // 108
  float minSpeed;       // 112
  float maxForce;       // 116
  float boidRadius;     // 120
  float perceptionRadius;   // 124
  float radius2;            // 128
  float separationRadius;   // 132
  float separationRadius2;  // 136
  float cosHalfFov;         // 140
  float minDistance;        // 144
  float lookahead;          // 148
  float slowRadius;         // 152
  float fleeRadius;         // 156
  float cruiseSpeed;        // 160
  float wSeparation;        // 164
  float wAlignment;         // 168
  float wCohesion;          // 172
  float wAvoidance;         // 176
  float wBounds;            // 180
  float wGoal;              // 184
  float wFlee;              // 188
  float wCruise;            // 192
  uint dims;                // 196
  uint wrap;                // 200
  uint goalModeAll;         // 204
  uint limitedFov;          // 208
  uint needFront;           // 212
  uint boidCount;           // 216
  uint groupCount;          // 220
  uint obstacleCount;       // 224
  uint goalOffset;          // 228
  uint predatorOffset;      // 232
  uint predatorCount;       // 236
  float wWalls;             // 240
  float wallCellSize;       // 244
  uint wallWidth;           // 248  0: no walls
  uint wallHeight;          // 252
  vec2 wallOrigin;          // 256  world x, z of cell (0, 0)
  uint recordLeaders;       // 264  write the leader flag into velocities.w
  uint steeringOffset;      // 268  inputs[steeringOffset + 3 g + k]: group g's steering
  uint topologicalNeighbours;  // 272  K; 0: the metric rule
  float wRoost;             // 276
  float roostRadius;        // 280  0: no roost
  float leaderRadius2;      // 284  RL^2: the leader test's reach
  vec4 roostCenter;         // 288  xyz (sim::StepContext::roostCenter)
  float searchRadius2;      // 304  max(R, RL)^2
} P;

// Obstacles, goals and predators of this step (sim::packInputs), one vec4 each.
layout(std430, binding = BINDING_INPUTS) readonly buffer InputsBlock { vec4 stepInputs[]; };

vec4 obstacle(uint k) { return stepInputs[k]; }           // xyz centre, w radius
vec4 goalOf(uint group) { return stepInputs[P.goalOffset + group]; }  // xyz goal, w 1 active / 0 none
vec3 predator(uint m) { return stepInputs[P.predatorOffset + m].xyz; }
// Group g's steering (sim::packInputs): k = 0 target xyz, w role; 1 target velocity xyz, w thrust;
// 2 x weight, y flocking, z the intercept horizon (s).
vec4 steeringOf(uint group, uint k) { return stepInputs[P.steeringOffset + 3u * group + k]; }

// Map walls (sim::WallGrid): one uint per cell, row-major, 1 = blocked.
layout(std430, binding = BINDING_WALLS) readonly buffer WallsBlock { uint wallCells[]; };
