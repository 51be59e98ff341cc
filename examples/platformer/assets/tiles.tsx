<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="tiles" tilewidth="16" tileheight="16" tilecount="16" columns="8">
 <image source="tiles.png" width="128" height="32"/>
 <tile id="0" type="grass">
  <properties>
   <property name="solid" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="1" type="dirt">
  <properties>
   <property name="solid" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="2" type="brick">
  <properties>
   <property name="solid" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="3" type="stone">
  <properties>
   <property name="solid" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="7" type="coin">
  <animation>
   <frame tileid="7" duration="300"/>
   <frame tileid="8" duration="150"/>
  </animation>
 </tile>
</tileset>
